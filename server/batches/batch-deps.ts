import type { Db } from '../db/client';
import type { GitUrlPolicy } from '../engine/intake';
import type { Clock } from '../engine/ports';
import type { ShadowPort } from '../engine/loop';
import type { BundleStore, WorkspaceLayout } from '../engine/workspace';
import type { SecretBox } from '../remotes/secret-box';

export interface BatchServiceDeps {
  readonly db: Db;
  readonly layout: WorkspaceLayout;
  readonly bundles?: BundleStore;
  /** The sandbox the combinations run in; null in a process that runs no tests (a web process). */
  readonly shadows: ShadowPort | null;
  readonly gitPolicy: GitUrlPolicy;
  readonly secrets?: SecretBox;
  readonly clock: Clock;
}
