import { interdiffQuerySchema } from '../../tasks/interdiff-refs';
import { parseTaskId } from '../http/schemas';
import { parseWith } from '../http/validation';
import { authenticate } from './auth';
import { restHandler, type TaskParams } from './handler';

/**
 * `GET /api/v1/tasks/{id}/interdiff?a=<ref>&b=<ref>` → the unified git diff from A's tree to B's,
 * as `text/x-diff` (empty when the trees are alike). Refs: `checkpoint:<n>` (0: the baseline),
 * `hypothesis:<n>/<name>`, `hypothesis:<id>`. 400 names a malformed ref, 404 an unknown one.
 */
export const handleInterdiff = restHandler<TaskParams>(async (request, { runtime }, params) => {
  const actor = await authenticate(request, runtime);
  const id = parseTaskId(params.id);
  const search = new URL(request.url).searchParams;
  const query = parseWith(
    interdiffQuerySchema,
    { a: search.get('a') ?? undefined, b: search.get('b') ?? undefined },
    'query',
  );
  const { diff } = await runtime.tasks.interdiff(id, query, actor);
  const bytes = Buffer.from(diff, 'utf8');
  return new Response(new Uint8Array(bytes), {
    status: 200,
    headers: {
      'Content-Type': 'text/x-diff; charset=utf-8',
      'Content-Length': String(bytes.byteLength),
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
});
