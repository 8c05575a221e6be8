import { rm } from 'node:fs/promises';
import { ingestArchive } from './server/engine/intake/ingest-archive';
for (const f of ['p.tgz', 'p.zip']) {
  await rm('/tmp/bx2/out', { recursive: true, force: true });
  const t = performance.now();
  const r = await ingestArchive({ archive: `/tmp/bx2/${f}`, into: '/tmp/bx2/out' });
  console.log(f, r.ok, Math.round(performance.now() - t), 'ms');
}
