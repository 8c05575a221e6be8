import { batchViewSchema as closedBatchView } from '../../../batches/batch-view-schema';
import { openSchema } from './open-schema';

/** `get_batch`'s structured result, with open objects (a field added later fails no client). */
export const batchViewSchema = openSchema(closedBatchView);
