import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../trpc/router-types';

type Outputs = inferRouterOutputs<AppRouter>['evals'];

export type EvalRunList = Outputs['list'];
export type EvalRunProgress = EvalRunList['runs'][number];
export type EvalRunDetail = Outputs['get'];
export type StartEvalRunInput = inferRouterInputs<AppRouter>['evals']['start'];
