import { diffViewSchema as serviceDiffView } from '../../../tasks/diff-view-schema';
import { openSchema } from './open-schema';

/**
 * DiffView (the REST `GET /api/v1/tasks/{id}/diff` body), as `get_diff`'s structured result: the
 * services' schema with open objects (a field the view gains later must not fail a client's
 * validation against this declaration).
 */
export const diffViewSchema = openSchema(serviceDiffView);
