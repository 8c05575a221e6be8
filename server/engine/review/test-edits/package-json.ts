/** The test settings and test scripts of a `package.json`. */

function canonicalJson(value: unknown): string {
  const sort = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sort)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v as Record<string, unknown>)
              .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
              .map(([k, item]) => [k, sort(item)]),
          )
        : v;
  return JSON.stringify(sort(value));
}

export const testScript = /^(?:pre|post)?test(?:$|[:_-])/;

/** `jest`/`mocha`/`ava`/`vitest` settings and test scripts; null when the text is not JSON. */
export function packageJsonProjection(text: string): Map<string, string[]> | null {
  try {
    const parsed: unknown = JSON.parse(text.replace(/^\uFEFF/, ''));
    const result = new Map<string, string[]>();
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return result;
    const object = parsed as Record<string, unknown>;
    for (const key of ['jest', 'mocha', 'ava', 'vitest']) {
      if (key in object) result.set(key, [canonicalJson(object[key])]);
    }
    const scripts = object.scripts;
    if (scripts !== null && typeof scripts === 'object' && !Array.isArray(scripts)) {
      for (const [name, script] of Object.entries(scripts as Record<string, unknown>)) {
        if (testScript.test(name)) result.set(`scripts.${name}`, [canonicalJson(script)]);
      }
    }
    return result;
  } catch {
    return null; // unparsable, or nested too deep to compare
  }
}
