/**
 * Which members of a failing batch break it, found bors-style: the batch is split in halves and
 * each half tested; a half that breaks is split again, down to one member; when both halves pass
 * yet the whole breaks, the culprit is an interaction across them, narrowed to one member of the
 * left half with the whole right half, then to the one member of the right half it breaks with.
 * Every answer is confirmed by a trial (nothing is inferred from a passing half), and a group that
 * no single member or pair explains is named as a group: no member is ever dropped silently.
 */

/** Tests the members together (in batch order); true when the combination breaks something. */
export type TryMembers<T> = (members: readonly T[]) => Promise<boolean>;

export interface CulpritSearch<T> {
  /** The batch's members, in order; the whole is known to break. */
  readonly members: readonly T[];
  readonly tryMembers: TryMembers<T>;
  /** A member known to pass alone (approved on the batch's base): it is not run alone. */
  readonly passesAlone?: (member: T) => boolean;
}

/** The culprits: each a member alone, a pair, or a group, in batch order. */
export async function findCulprits<T>(search: CulpritSearch<T>): Promise<T[][]> {
  const order = new Map(search.members.map((member, index) => [member, index]));
  const sorted = (set: readonly T[]) =>
    [...new Set(set)].sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
  const known = new Map<string, Promise<boolean>>();
  const breaks = (set: readonly T[]): Promise<boolean> => {
    const members = sorted(set);
    const only = members[0];
    if (members.length === 1 && only !== undefined && search.passesAlone?.(only) === true) {
      return Promise.resolve(false);
    }
    const key = members.map((member) => order.get(member)).join(',');
    let verdict = known.get(key);
    if (verdict === undefined) {
      verdict = search.tryMembers(members);
      known.set(key, verdict);
    }
    return verdict;
  };

  const interaction = async (left: readonly T[], right: readonly T[]): Promise<T[]> => {
    let narrowed = left;
    while (narrowed.length > 1) {
      const [l1, l2] = halves(narrowed);
      if (await breaks([...l1, ...right])) narrowed = l1;
      else if (await breaks([...l2, ...right])) narrowed = l2;
      else return sorted([...narrowed, ...right]);
    }
    const a = narrowed[0] as T;
    let partner = right;
    while (partner.length > 1) {
      const [r1, r2] = halves(partner);
      if (await breaks([a, ...r1])) partner = r1;
      else if (await breaks([a, ...r2])) partner = r2;
      else return sorted([a, ...partner]);
    }
    return sorted([a, ...partner]);
  };

  const culprits = async (set: readonly T[]): Promise<T[][]> => {
    if (set.length === 1) return [sorted(set)];
    const [left, right] = halves(set);
    const [leftBreaks, rightBreaks] = await Promise.all([breaks(left), breaks(right)]);
    if (!leftBreaks && !rightBreaks) return [await interaction(left, right)];
    return [
      ...(leftBreaks ? await culprits(left) : []),
      ...(rightBreaks ? await culprits(right) : []),
    ];
  };

  return culprits(sorted(search.members));
}

function halves<T>(set: readonly T[]): [readonly T[], readonly T[]] {
  const middle = Math.ceil(set.length / 2);
  return [set.slice(0, middle), set.slice(middle)];
}
