import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
// Type only, erased from the bundle: the router's type is the contract between UI and server.
import type { AppRouter } from '@/server/api/trpc/root';

export type { AppRouter };

type Outputs = inferRouterOutputs<AppRouter>['tasks'];
type Inputs = inferRouterInputs<AppRouter>['tasks'];

export type TaskView = Outputs['get'];
export type TaskStatus = TaskView['status'];
export type TaskPage = Outputs['list'];
export type TaskSummary = TaskPage['tasks'][number];
export type TaskListQuery = Extract<Inputs['list'], object>;
export type TaskSource = TaskView['source'];
export type DiffView = Outputs['diff'];
export type DiffFlags = DiffView['flags'];
export type WorkspaceFile = Outputs['listFiles'][number];
export type HypothesisInput = Inputs['submitHypothesis']['hypothesis'];
export type RemoteView = Outputs['remotes'][number];

type Yielded<T> = T extends AsyncIterable<infer Item> ? Item : never;

/** One event of a task's log: `{ seq, createdAt, event }`, the event a typed TaskEvent. */
export type TimelineItem = Yielded<Outputs['events']>['data'];
export type TaskChange = Yielded<Outputs['changes']>;
export type TaskEvent = TimelineItem['event'];
export type EventOf<K extends TaskEvent['type']> = Extract<TaskEvent, { type: K }>;

export type SandboxStatus = inferRouterOutputs<AppRouter>['system']['sandbox'];

type AccountOutputs = inferRouterOutputs<AppRouter>['account'];
export type Me = AccountOutputs['me'];
export type Role = Me['role'];
export type ApiToken = AccountOutputs['tokens'][number];
export type TokenScope = ApiToken['scopes'][number];
export type AuditEntry = inferRouterOutputs<AppRouter>['admin']['audit'][number];

type ReviewOutputs = inferRouterOutputs<AppRouter>['reviews'];
type ReviewInputs = inferRouterInputs<AppRouter>['reviews'];

/** The review conversation (`reviews.*`): threads on the diff, the person's drafts, verdicts. */
export type ThreadList = ReviewOutputs['threads'];
export type ThreadView = ThreadList['threads'][number];
export type ThreadComment = ThreadView['comments'][number];
export type ThreadSide = ThreadView['side'];
export type DraftView = ReviewOutputs['drafts'][number];
export type ReviewHistoryItem = ReviewOutputs['history'][number];
export type DraftInput = ReviewInputs['saveDraft']['draft'];
export type ReviewVerdict = ReviewInputs['submit']['verdict'];
/** TaskView's `review`: the round, the standing verdict, who asked for changes, open threads. */
export type ReviewSummary = TaskView['review'];
