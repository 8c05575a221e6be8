import type { inferRouterOutputs } from '@trpc/server';
// Type only, erased from the bundle: the router's type is the contract between UI and server.
import type { AppRouter } from '@/server/api/trpc/root';

type Outputs = inferRouterOutputs<AppRouter>['tasks'];

export type CompareMatrixView = Outputs['compare'];
export type CompareColumnView = CompareMatrixView['columns'][number];
export type CompareRowView = CompareMatrixView['rows'][number];
export type CellStatusView = CompareRowView['cells'][number];
export type CompareCellView = Outputs['compareCell'];
