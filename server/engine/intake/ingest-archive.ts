import { stat } from 'node:fs/promises';
import { discardEvents, type EventSink } from '../ports';
import { ArchiveGate } from './archive-gate';
import { sniffArchiveFormat, type ArchiveFormat } from './archive-format';
import { ArchiveWriter } from './archive-writer';
import { resolveIntakeCaps, type IntakeCaps } from './intake-caps';
import type { IntakeEvent } from './intake-events';
import { reject, reportRejection, type IntakeResult } from './intake-result';
import { openStaging } from './staging';
import { extractTar } from './tar-extract';
import { extractZip } from './zip-extract';

export interface IngestArchiveOptions {
  readonly archive: string;
  /** Must not exist; its parent must. Created only if everything passes. */
  readonly into: string;
  readonly caps?: Partial<IntakeCaps>;
  readonly events?: EventSink<IntakeEvent>;
}

export interface IngestedArchive {
  readonly dir: string;
  readonly format: ArchiveFormat;
  readonly files: number;
  readonly bytes: number;
}

/**
 * Checks an uploaded archive against the intake policy and extracts it atomically: on success DIR
 * holds exactly the archive's files (modes 0644/0755, a single top-level folder stripped) and its
 * relative in-tree links; on any rejection or fault nothing exists at DIR and the staging
 * directory is gone.
 */
export async function ingestArchive(
  options: IngestArchiveOptions,
): Promise<IntakeResult<IngestedArchive>> {
  const events: EventSink<IntakeEvent> = options.events ?? discardEvents;
  const caps = resolveIntakeCaps(options.caps);
  events.emit({ type: 'intake.started', source: 'archive', location: options.archive });
  try {
    const archiveStat = await stat(options.archive).catch(() => null);
    if (archiveStat === null || !archiveStat.isFile()) {
      throw reject('ARCHIVE_NOT_FOUND', 'the archive file does not exist', {
        archive: options.archive,
      });
    }
    const format = await sniffArchiveFormat(options.archive);
    const staging = await openStaging(options.into);
    try {
      const gate = new ArchiveGate(caps, events);
      const writer = new ArchiveWriter(staging.root);
      if (format === 'zip') await extractZip(options.archive, gate, writer, caps);
      else await extractTar(options.archive, gate, writer, caps);
      // Links last, once every file is written: none can be written through, and each was judged
      // against the whole archive.
      for (const link of gate.acceptedLinks()) {
        await writer.link(link.segments, link.target);
        gate.entryDone('link');
      }
      gate.reportProgress();
      await staging.commit({ stripSingleTopFolder: true });
      const files = gate.files;
      events.emit({ type: 'intake.completed', files, bytes: gate.bytes, commit: null });
      return { ok: true, dir: staging.destination, format, files, bytes: gate.bytes };
    } finally {
      await staging.discard();
    }
  } catch (error) {
    return reportRejection(error, events);
  }
}
