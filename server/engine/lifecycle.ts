// The task lifecycle's door, for the server and the browser alike: it pulls in nothing but the
// pure `loop/task-lifecycle.ts` (no Node imports), so client components may import it.
export * from './loop/task-lifecycle';
