// What a detection rule reads (a tree, as a Root) and contributes (a Part): a leaf that
// detect-setup.ts (the whole plan) and detect-build.ts (the compiled build's rule) both use.

/** The files of a commit, as detection sees them: the listing plus lazy reads. */
export interface SetupTree {
  /** Workspace-relative, '/'-separated paths of the tree's files. */
  readonly files: readonly string[];
  /** A file's text, or null when it is absent or unreadable. */
  read(path: string): Promise<string | null>;
}

/**
 * A compiled project's setup configures and builds once, so the warm build directory is in every
 * run's lower layer; then every run must rebuild before its tests, or it would test the binaries
 * built from the baseline whatever the hypothesis changed. The build step is that rebuild
 * (incremental: only what the hypothesis touched compiles again).
 */
export interface DetectedBuild {
  readonly argv: readonly string[];
  /** Shown on the task: why this build step, and how to override it. */
  readonly reason: string;
}

/** What one ecosystem's rule contributes to the plan. */
export interface Part {
  readonly commands?: readonly (readonly string[])[];
  readonly outputs?: readonly string[];
  readonly manifests?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly workspaceEnv?: Readonly<Record<string, string>>;
  readonly build?: DetectedBuild;
  readonly reasons: readonly string[];
}

export interface Root {
  readonly tree: SetupTree;
  readonly has: (path: string) => boolean;
  /** The present ones among `paths`, in that order. */
  readonly present: (...paths: string[]) => string[];
}
