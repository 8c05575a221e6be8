/** A 95% interval around a rate. */
export interface Interval {
  readonly low: number;
  readonly high: number;
}

/** z for a two-sided 95% interval. */
const z95 = 1.959963984540054;

/**
 * The Wilson score interval for `successes` out of `trials`: unlike the normal approximation it
 * stays inside [0, 1] and is honest at 0/n and n/n, which small eval sets hit all the time.
 * No trials: nothing is known, [0, 1].
 */
export function wilsonInterval(successes: number, trials: number, z = z95): Interval {
  if (!Number.isInteger(trials) || trials < 0) {
    throw new RangeError(`trials must be a whole number ≥ 0, got ${trials}`);
  }
  if (!(successes >= 0 && successes <= trials)) {
    throw new RangeError(`successes must be from 0 to ${trials}, got ${successes}`);
  }
  if (trials === 0) return { low: 0, high: 1 };
  const p = successes / trials;
  const z2 = z * z;
  const denominator = 1 + z2 / trials;
  const centre = (p + z2 / (2 * trials)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials))) / denominator;
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}
