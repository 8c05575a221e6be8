import type { ShadowMode } from './executor';
import type { HypothesisOutcome } from './shadow-report';

/** Everything a shadow run reports while it runs, in order. */
export type ShadowEvent =
  | {
      readonly type: 'shadow.started';
      readonly mode: ShadowMode;
      readonly command: readonly string[];
      readonly hypotheses: readonly string[];
    }
  | { readonly type: 'hypothesis.started'; readonly name: string }
  | { readonly type: 'hypothesis.output'; readonly name: string; readonly line: string }
  | { readonly type: 'hypothesis.finished'; readonly result: HypothesisOutcome }
  | {
      readonly type: 'shadow.ranked';
      readonly winner: string | null;
      readonly order: readonly string[];
    }
  | { readonly type: 'shadow.applied'; readonly name: string; readonly files: readonly string[] };
