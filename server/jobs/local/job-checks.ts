import { AppError } from '../../errors/app-error';

export function checkWorkerId(workerId: string): void {
  if (workerId === '') throw new AppError('INVALID_ARGUMENT', 'workerId must not be empty');
}

export function checkDuration(ms: number, name: string): void {
  if (!Number.isSafeInteger(ms) || ms <= 0) {
    throw new AppError('INVALID_ARGUMENT', `${name} must be a whole number of ms > 0, got ${ms}`);
  }
}

export function checkDate(date: Date, name: string): void {
  if (!(date instanceof Date) || Number.isNaN(date.getTime())) {
    throw new AppError('INVALID_ARGUMENT', `${name} must be a valid Date`);
  }
}
