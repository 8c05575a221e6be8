import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../trpc/router-types';

/** The batch views as the UI receives them (`batches.*`, server/batches/batch-api.ts). */
type Outputs = inferRouterOutputs<AppRouter>['batches'];

export type BatchView = Outputs['get'];
export type BatchStatus = BatchView['status'];
export type BatchMember = BatchView['members'][number];
export type BatchConflict = BatchView['conflicts'][number];
export type BatchTrial = BatchView['trials'][number];
export type BatchCulprit = BatchView['culprits'][number];
export type BatchPush = BatchView['pushes'][number];
export type BatchDiff = Outputs['diff'];
