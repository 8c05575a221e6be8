import path from 'node:path';

/**
 * The checkout the command belongs to (its package.json, .next/, node_modules/): two levels above
 * this module both when it runs from source (server/cli/) and when it runs built (dist/cli/, see
 * scripts/build-cli.mjs), whatever the working directory.
 */
export const projectRoot = path.resolve(import.meta.dirname, '..', '..');
