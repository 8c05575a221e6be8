/**
 * The build step of every run: a fixed shell script, run inside the sandbox, that runs the build
 * command and, only when it succeeds, execs the test command in its place. Both reach it as
 * positional arguments, so no argument is ever interpreted by a shell.
 */
const buildFailedMarker = 'shadowbox: the build command failed with exit code ';

// `first N ARGS…` runs the first N of ARGS: positional parameters are the function's own, so
// rebuilding them there leaves the script's (the test command) untouched.
const script = `first() {
  n=$1; shift
  k=$#; i=0
  for a; do
    if [ "$i" -lt "$n" ]; then set -- "$@" "$a"; fi
    i=$((i + 1))
  done
  shift "$k"
  "$@"
}
n=$1; shift
first "$n" "$@"
rc=$?
if [ "$rc" -ne 0 ]; then echo "${buildFailedMarker}$rc"; exit "$rc"; fi
shift "$n"
exec "$@"
`;

/** The argv that builds with `build`, then tests with `test`. */
export function withBuildStep(build: readonly string[], test: readonly string[]): string[] {
  return ['/bin/sh', '-c', script, 'shadowbox-build', String(build.length), ...build, ...test];
}

/**
 * Whether a run's build step failed. The marker is the output's last line and the exit code its
 * number. A test command could print the same line; it would only make its own run a build
 * failure, which ranks below every run that ran tests, so forging it gains nothing.
 */
export function buildStepFailed(exitCode: number | null, output: string): boolean {
  if (exitCode === null || exitCode === 0) return false;
  const lines = output.trimEnd().split('\n');
  return lines[lines.length - 1] === `${buildFailedMarker}${exitCode}`;
}
