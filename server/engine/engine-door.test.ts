import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The README names server/engine/index.ts the engine's door, re-exporting each folder's door. It
// drifted once (a new folder's door was missing from it): this keeps the two in step.
const engine = path.join(process.cwd(), 'server/engine');

describe('the engine door', () => {
  it('re-exports every folder that has a door of its own', () => {
    const doors = readdirSync(engine, { withFileTypes: true })
      .filter(
        (entry) => entry.isDirectory() && existsSync(path.join(engine, entry.name, 'index.ts')),
      )
      .map((entry) => entry.name)
      .sort();
    const reexported = [
      ...readFileSync(path.join(engine, 'index.ts'), 'utf8').matchAll(
        /^export \* from '\.\/([a-z-]+)';$/gm,
      ),
    ]
      .map((match) => match[1])
      .filter((name) => name !== 'ports')
      .sort();
    expect(reexported).toEqual(doors);
  });
});
