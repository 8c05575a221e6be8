// The import graph's rules, checked by `npm run lint` (depcruise, after ESLint). ESLint's
// no-restricted-imports already holds the engine free of frameworks, its doors, and the UI off
// the server; these are the rules that need the whole graph or a path ESLint does not check.
// Type-only imports count: `tsPreCompilationDeps` reads the TypeScript before types are erased.

/** Tests and their helpers may reach anywhere (fixtures, fakes, the real queue in a test). */
const tests = '\\.test\\.tsx?$|/test-support/';

export default {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'A circle of imports has no layer order to read it in. Break it by moving what both ' +
        'sides share (types, constants) into a leaf module that imports neither.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'engine-imports-only-the-engine',
      severity: 'error',
      comment:
        'server/engine is the bottom layer: its production files import the engine and the one ' +
        'error type (server/errors), never the services, transports, job runners or the UI above.',
      from: { path: '^server/engine/', pathNot: tests },
      to: { path: '^(server|app|components)/', pathNot: '^server/(engine|errors)/' },
    },
    {
      name: 'services-never-import-the-jobs',
      severity: 'error',
      comment:
        "server/jobs runs the services' work (it implements their TaskScheduler port); the " +
        'services, the database layer and the auth below it never import the jobs back.',
      from: {
        path: '^server/(tasks|reviews|batches|remotes|auth|db|llm|errors)/',
        pathNot: tests,
      },
      to: { path: '^server/jobs/' },
    },
    {
      name: 'server-never-imports-the-ui',
      severity: 'error',
      comment:
        'The pages and components sit on top of the server: nothing under server/ imports them.',
      from: { path: '^server/' },
      to: { path: '^(app|components)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^server/db/generated/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.mjs', '.js', '.json'] },
  },
};
