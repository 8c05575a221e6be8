import { AppError } from '../../errors/app-error';
import type { ListTasksQueryInput } from '../../tasks/list-tasks-query';
import { parseCount } from './query';

/**
 * `GET /api/v1/tasks?status=&owner=&team=&source=&q=&sort=&cursor=&limit=` as the service's
 * query. Only the URL's own shapes are read here (several `status`, a decimal `limit`); the
 * service checks the rest, unknown parameters included, and names the one at fault.
 */
export function taskListQueryOf(request: Request): ListTasksQueryInput {
  const params = new URL(request.url).searchParams;
  const query: Record<string, unknown> = {};
  for (const name of new Set(params.keys())) {
    const values = params.getAll(name);
    if (name === 'status') {
      // `status=a,b` and `status=a&status=b` alike.
      query[name] = values.flatMap((value) => value.split(',')).map((value) => value.trim());
      continue;
    }
    const [value] = values;
    if (values.length > 1 || value === undefined) {
      throw new AppError('INVALID_ARGUMENT', `${name}: give it once, not ${values.length} times`);
    }
    query[name] = name === 'limit' ? parseCount(value, 'limit') : value;
  }
  // Checked by the service's schema (strict: an unknown parameter is refused by name).
  return query;
}
