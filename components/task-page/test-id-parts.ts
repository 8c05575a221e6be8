/**
 * Where a test's own name starts in its id: after the last occurrence of the strongest separator
 * the id holds, in the runners' own terms: pytest and cargo `::`, jest/vitest ` › ` and ` > `, Go
 * subtests and paths `/`, mocha `#`, dotted unittest and JUnit names `.`. A weaker separator
 * inside a name ("adds 1.5", a path in a describe) must not cut it, hence strongest first, and
 * a parametrized test's `[…]` is part of its name. What comes before may be elided; the name
 * is always shown.
 */
const separators: readonly (readonly string[])[] = [['::'], [' › ', ' > '], ['/'], ['#'], ['.']];

export function splitTestId(id: string): { readonly head: string; readonly name: string } {
  // unittest's "test_x (pkg.mod.Class.test_x)" names itself first: nothing to elide before it.
  if (/^\S+ \(.+\)$/.test(id)) return { head: '', name: id };
  const params = /\[[^\]]*\]$/.exec(id);
  const searched = params === null ? id : id.slice(0, params.index);
  for (const group of separators) {
    let cut = -1;
    let width = 0;
    for (const separator of group) {
      const at = searched.lastIndexOf(separator);
      // A trailing separator (`suite/`) leaves no name: look for another.
      if (at > cut && at + separator.length < searched.length) {
        cut = at;
        width = separator.length;
      }
    }
    if (cut > 0) return { head: id.slice(0, cut + width), name: id.slice(cut + width) };
  }
  return { head: '', name: id };
}
