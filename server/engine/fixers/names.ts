/**
 * A model's name for its fix as a short slug: lowercase ASCII letters, digits and single dashes
 * (accents dropped, everything else a separator), at most `max` characters, `fix` if nothing is
 * left. Names end up in events, branch-like labels and commit messages, so nothing else passes.
 */
export function slugify(text: string, max = 40): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max)
    .replace(/-+$/, '');
  return slug === '' ? 'fix' : slug;
}

/**
 * `llm-<iteration>-<sample>-<slug>`, made unique against `taken` (which it then includes) by a
 * `-2`, `-3` … suffix.
 */
export function llmHypothesisName(
  iteration: number,
  sample: number,
  modelName: string,
  taken: Set<string>,
): string {
  const base = `llm-${iteration}-${sample}-${slugify(modelName)}`;
  let name = base;
  for (let suffix = 2; taken.has(name); suffix += 1) name = `${base}-${suffix}`;
  taken.add(name);
  return name;
}
