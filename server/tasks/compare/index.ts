// The compare matrix: hypotheses side by side with the baseline, test by test.
export { compareTask } from './compare-task';
export { compareCell } from './compare-cell';
export {
  cellStatuses,
  columnEvidence,
  compareCellSchema,
  compareColumnSchema,
  compareMatrixSchema,
  compareRowSchema,
  iterationNumberSchema,
  runIdSchema,
  testIdSchema,
  type CellStatus,
  type ColumnEvidence,
  type CompareCell,
  type CompareColumn,
  type CompareMatrix,
  type CompareRow,
} from './compare-schema';
