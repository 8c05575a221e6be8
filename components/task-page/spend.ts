import type { TaskView } from '../trpc/router-types';

export type Spend = TaskView['spend'];

/** One fixed locale, so the server and the browser render the same digits. */
const count = new Intl.NumberFormat('en-US');

/** What the fixer is called on the page; an unknown one is shown as the server names it. */
export function fixerLabel(fixer: string): string {
  if (fixer === 'external') return 'External agents and people';
  if (fixer === 'llm') return 'LLM';
  return fixer;
}

/** An LLM task always shows its spend; any other task only once something was spent. */
export const showsSpend = (task: Pick<TaskView, 'fixer' | 'spend'>): boolean =>
  task.fixer === 'llm' || task.spend.tokens > 0;

/**
 * The estimated cost in US dollars from micro-dollars: cents once it reaches a dollar, otherwise
 * four decimals (the price of a few thousand tokens); `< $0.0001` for a trace, `$0` for nothing.
 */
export function formatCost(costMicroUsd: number): string {
  if (costMicroUsd <= 0) return '$0';
  if (costMicroUsd < 100) return '< $0.0001';
  const usd = costMicroUsd / 1_000_000;
  const fine = usd.toFixed(4);
  return `≈ $${Number(fine) >= 1 ? usd.toFixed(2) : fine}`;
}

/** `1,234 of 200,000 tokens · ≈ $0.0026` (without a cap: `1,234 tokens · ≈ $0.0026`). */
export function formatSpend(spend: Spend): string {
  const tokens =
    spend.maxTokens === null
      ? `${count.format(spend.tokens)} ${spend.tokens === 1 ? 'token' : 'tokens'}`
      : `${count.format(spend.tokens)} of ${count.format(spend.maxTokens)} tokens`;
  return `${tokens} · ${formatCost(spend.costMicroUsd)}`;
}

/**
 * The newer of the stored spend and the totals the event stream reported last: both only grow,
 * so the larger token count is the newer one (the cap comes from the stored view).
 */
export function newestSpend(
  stored: Spend,
  live: { readonly tokens: number; readonly costMicroUsd: number } | null,
): Spend {
  if (live === null || live.tokens <= stored.tokens) return stored;
  return { ...stored, tokens: live.tokens, costMicroUsd: live.costMicroUsd };
}
