import js from '@eslint/js';
import nextPlugin from '@next/eslint-plugin-next';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const frameworkImports = [
  {
    group: ['next', 'next/*'],
    message: 'The engine is framework-free: talk to Next through a port.',
  },
  { group: ['@trpc/*'], message: 'The engine is framework-free: transport lives in server/api.' },
  {
    group: ['@prisma/*', 'prisma'],
    message: 'The engine is framework-free: persistence lives in server/<domain>.',
  },
  { group: ['react', 'react-dom', 'react/*'], message: 'The engine is framework-free.' },
];

const engineDoor = {
  regex: '(^|/)engine/[a-z-]+/[^/]+$',
  message:
    'Import the engine through its door: server/engine or server/engine/<folder> (its index.ts).',
};
const jobsDoor = {
  regex: '(^|/)jobs/.+$',
  message: 'Import the jobs through their door: server/jobs (its index.ts).',
};

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      '.next/',
      'data/',
      'public/',
      'next-env.d.ts',
      'bench/.work/',
      'dist/',
      '**/fixtures/**',
      'server/db/generated/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
    },
  },
  {
    files: ['**/*.mjs', 'bin/**'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      parserOptions: { projectService: false, project: null },
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly' },
    },
  },
  {
    files: ['app/**/*.{ts,tsx}', 'components/**/*.{ts,tsx}'],
    plugins: { '@next/next': nextPlugin, 'react-hooks': reactHooks },
    rules: {
      ...nextPlugin.configs.recommended.rules,
      ...nextPlugin.configs['core-web-vitals'].rules,
      ...reactHooks.configs.recommended.rules,
    },
  },
  {
    // Zones: the engine imports no framework; UI code never reaches into the server.
    files: ['server/engine/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: frameworkImports }] },
  },
  {
    // One door into the engine and one into the jobs: from outside, `server/engine` or a folder's
    // own door (`server/engine/<folder>`), and `server/jobs`; never a file inside. Tests may reach
    // further in.
    files: ['server/**/*.ts', 'app/**/*.{ts,tsx}', 'bench/**/*.ts'],
    ignores: ['server/engine/**', 'server/jobs/**', '**/*.test.ts', '**/test-support/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [engineDoor, jobsDoor] }] },
  },
  {
    files: ['server/jobs/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [engineDoor] }] },
  },
  {
    files: ['components/**/*.{ts,tsx}'],
    rules: {
      // Values never; the router's *type* is the contract the tRPC client is typed with.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // The pure doors (no node imports) are the exception: the lifecycle and the diff parser.
              regex: '^(@/|(\\.\\./)+)server/(?!api/trpc/root$|engine/lifecycle$|engine/diff$)',
              message:
                'Components talk to the server through tRPC only (and the pure doors @/server/engine/lifecycle and @/server/engine/diff).',
            },
            {
              group: ['@/server/api/trpc/root'],
              allowTypeImports: true,
              message: 'Only the AppRouter type may be imported from the server.',
            },
          ],
        },
      ],
    },
  },
  {
    // Every interactive transaction retries when the database is busy or in conflict: on SQLite
    // another process (a worker, `shadowbox mcp`, the CLI) may hold the write lock past the busy
    // timeout. Tests may open one directly to hold a lock or to observe a rollback.
    files: ['server/**/*.ts', 'app/**/*.{ts,tsx}'],
    ignores: ['server/db/transaction.ts', '**/*.test.ts', '**/test-support/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='$transaction']",
          message:
            'Use inTransaction (server/db/transaction.ts): it retries while the database is busy.',
        },
      ],
    },
  },
  {
    files: ['**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);
