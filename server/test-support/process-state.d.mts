/** Whether a test file's source changes state that outlives it in its process (see the .mjs). */
export function changesProcessState(source: string): boolean;
/** The files under `root` ending in `suffix` whose source changes process state (see the .mjs). */
export function filesChangingProcessState(root: string, suffix: string, cwd?: string): string[];
