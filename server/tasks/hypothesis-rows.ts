import { createHash } from 'node:crypto';
import type { Tx } from '../db/transaction';
import type { CandidateHypothesis } from '../engine/loop';

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/**
 * Stores a hypothesis: its row, its edits, and each written file's contents once, by hash.
 * `submittedById` is the person who sent it (the second-reviewer rule reads it).
 */
export async function insertHypothesis(
  tx: Tx,
  taskId: string,
  iterationId: string | null,
  candidate: CandidateHypothesis,
  submittedById: string | null = null,
): Promise<string> {
  const { hypothesis } = candidate;
  const edits: { path: string; op: string; blobSha256: string | null }[] = [];
  for (const edit of hypothesis.edits) {
    const bytes = Buffer.from(edit.content, 'utf8');
    const hash = sha256(bytes);
    await tx.blob.upsert({
      where: { sha256: hash },
      create: { sha256: hash, bytes: new Uint8Array(bytes), size: bytes.length },
      update: {},
    });
    edits.push({ path: edit.path, op: 'write', blobSha256: hash });
  }
  for (const path of hypothesis.delete) edits.push({ path, op: 'delete', blobSha256: null });
  const row = await tx.hypothesis.create({
    data: {
      taskId,
      iterationId,
      name: hypothesis.name,
      origin: candidate.origin,
      author: candidate.author,
      submittedById,
      createdAt: candidate.submittedAt,
      edits: { create: edits },
    },
    select: { id: true },
  });
  return row.id;
}

type HypothesisWithEdits = {
  id: string;
  name: string;
  origin: string;
  author: string | null;
  createdAt: Date;
  edits: { path: string; op: string; blob: { bytes: Uint8Array } | null }[];
};

export const hypothesisWithEdits = {
  id: true,
  name: true,
  origin: true,
  author: true,
  createdAt: true,
  edits: { select: { path: true, op: true, blob: { select: { bytes: true } } } },
} as const;

/** Back from rows to what the engine runs. Edits keep their submitted order by path. */
export function toCandidate(row: HypothesisWithEdits): CandidateHypothesis {
  return {
    inboxId: row.id,
    origin: row.origin,
    author: row.author,
    submittedAt: row.createdAt,
    hypothesis: {
      name: row.name,
      edits: row.edits
        .filter((e) => e.op === 'write')
        .map((e) => ({ path: e.path, content: Buffer.from(e.blob?.bytes ?? []).toString('utf8') })),
      delete: row.edits.filter((e) => e.op === 'delete').map((e) => e.path),
    },
  };
}
