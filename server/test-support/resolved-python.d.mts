/** Puts the interpreter pyenv's `python3` shim would start first on `env.PATH` (see the .mjs). */
export function preferResolvedPython(env?: NodeJS.ProcessEnv): void;
