/** Integration batches: the front door of server/batches (see batch-api.ts for the contract). */
export type * from './batch-api';
export { BatchService, maxBatchMembers } from './batch-service';
export type { BatchServiceDeps } from './batch-deps';
