// PEP 735 dependency groups (`[dependency-groups]` in pyproject.toml): the requirements of a
// group, with the groups it includes. pip reads them only from 25.1 on (`--group`), older than
// what a venv brings here, so setup passes the requirements themselves, which also shows them.

/** The text of a top-level table, from its header to the next header. */
function tableText(text: string, table: string): string | null {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.replace(/#.*$/, '').trim() === `[${table}]`);
  if (start === -1) return null;
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((line) => /^\s*\[/.test(line));
  return (end === -1 ? rest : rest.slice(0, end)).join('\n');
}

/** The body of the array `key = [ … ]` in `table`, brackets inside strings left alone. */
function arrayBody(table: string, key: string): string | null {
  const normalized = (name: string): string => name.toLowerCase().replace(/[-_.]+/g, '-');
  for (const match of table.matchAll(/^\s*["']?([\w.-]+)["']?\s*=\s*\[/gm)) {
    if (normalized(match[1] ?? '') !== normalized(key)) continue;
    const open = match.index + match[0].length;
    let depth = 1;
    let quote: string | null = null;
    for (let i = open; i < table.length; i += 1) {
      const char = table[i] ?? '';
      if (quote !== null) {
        if (char === '\\' && quote === '"') i += 1;
        else if (char === quote) quote = null;
      } else if (char === '"' || char === "'") quote = char;
      else if (char === '#')
        i = table.indexOf('\n', i) === -1 ? table.length : table.indexOf('\n', i);
      else if (char === '[') depth += 1;
      else if (char === ']' && --depth === 0) return table.slice(open, i);
    }
    return null;
  }
  return null;
}

/**
 * The requirements of the dependency group `name` (compared as PEP 735 normalizes names), with
 * those of the groups it includes; null when pyproject.toml has no such group.
 */
export function dependencyGroup(pyproject: string, name: string): string[] | null {
  const table = tableText(pyproject, 'dependency-groups');
  if (table === null) return null;
  const seen = new Set<string>();
  const collect = (group: string): string[] | null => {
    if (seen.has(group)) return []; // an include cycle: pip refuses it; nothing more to add here
    seen.add(group);
    const body = arrayBody(table, group);
    if (body === null) return null;
    const found: string[] = [];
    const items = /\{\s*include-group\s*=\s*"([^"]+)"\s*\}|"((?:[^"\\]|\\.)*)"|'([^']*)'/g;
    for (const match of body.matchAll(items)) {
      if (match[1] !== undefined) found.push(...(collect(match[1]) ?? []));
      else found.push(match[2] ?? match[3] ?? '');
    }
    return found.filter((r) => r.trim() !== '');
  };
  return collect(name);
}
