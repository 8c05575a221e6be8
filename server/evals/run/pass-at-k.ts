// The rates of an eval run, from each instance's attempts (n) and how many of them resolved (c).

/**
 * The unbiased pass@k estimator (Chen et al., 2021): the chance that at least one of k attempts
 * drawn without replacement from the n made resolves, 1 − C(n−c, k) / C(n, k), computed as a
 * product so large n does not overflow.
 */
export function passAtK(n: number, c: number, k: number): number {
  checkCounts(n, c);
  if (!Number.isInteger(k) || k < 1 || k > n) {
    throw new RangeError(`k must be a whole number from 1 to n = ${n}, got ${k}`);
  }
  if (n - c < k) return 1;
  let allFail = 1;
  for (let i = n - c + 1; i <= n; i += 1) allFail *= 1 - k / i;
  return 1 - allFail;
}

/** pass^k: every one of the k attempts resolved (n must be k). */
export function passHatK(n: number, c: number, k: number): number {
  checkCounts(n, c);
  return n >= k && c === n ? 1 : 0;
}

/** One instance's tally: attempts made and attempts resolved. */
export interface InstanceTally {
  readonly n: number;
  readonly c: number;
}

/**
 * The set's rates, averaged over instances that have attempts: pass@1, pass@k (k capped by each
 * instance's n, so a run still going reports what it has) and pass^k over the instances whose k
 * attempts are all done.
 */
export function setRates(
  tallies: readonly InstanceTally[],
  k: number,
): { passAt1: number; passAtK: number; passHatK: number } {
  const started = tallies.filter((t) => t.n > 0);
  const complete = started.filter((t) => t.n >= k);
  const mean = (values: readonly number[]): number =>
    values.length === 0 ? 0 : values.reduce((sum, v) => sum + v, 0) / values.length;
  return {
    passAt1: mean(started.map((t) => passAtK(t.n, t.c, 1))),
    passAtK: mean(started.map((t) => passAtK(t.n, t.c, Math.min(k, t.n)))),
    passHatK: mean(complete.map((t) => passHatK(t.n, t.c, k))),
  };
}

function checkCounts(n: number, c: number): void {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`n must be ≥ 1, got ${n}`);
  if (!Number.isInteger(c) || c < 0 || c > n) {
    throw new RangeError(`c must be a whole number from 0 to n = ${n}, got ${c}`);
  }
}
