import { AppError } from '../errors/app-error';

/** `value` when it is a whole number ≥ 1; an INVALID_ARGUMENT naming the option otherwise. */
export function positiveInteger(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new AppError('INVALID_ARGUMENT', `${name} must be a whole number ≥ 1, got ${value}`);
  }
  return value;
}
