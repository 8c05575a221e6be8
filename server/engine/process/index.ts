// The process folder's front door: what code outside the engine may import from it.
export { runProcess, type ProcessResult } from './run-process';
