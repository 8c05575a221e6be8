// The process folder's front door: what code outside the engine may import from it.
export { isProcessAlive } from './process-alive';
export { runProcess, type ProcessResult } from './run-process';
