export * from './test-edits/index';
