// The engine's front door: code outside server/engine imports this module or one folder's own
// door (`server/engine/<folder>`), never a file inside a folder (an ESLint rule holds the line).
// Folder doors keep a caller's imports to what it uses (the CLI's start pays for no sandbox).
// Every folder with a door is re-exported here (engine-door.test.ts checks).
export * from './egress';
export * from './fixers';
export * from './intake';
export * from './landing';
export * from './loop';
export * from './parsers';
export * from './policy';
export * from './process';
export * from './review';
export * from './sandbox';
export * from './setup';
export * from './shadow';
export * from './workspace';
export * from './ports';
// Two folders export a `diffCommits`: the door's is the reviewed diff's (workspace); landing's
// (a batch's combined diff, without the review diff's git config) is taken from its own door.
export { diffCommits } from './workspace';
