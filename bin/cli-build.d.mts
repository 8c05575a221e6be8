/** The built entry's path if the build in `outdir` (default dist/cli/) is complete and current. */
export function currentBuild(root: string, outdir?: string): string | null;
