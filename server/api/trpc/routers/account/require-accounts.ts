import type { Accounts } from '../../../../auth';
import { AppError } from '../../../../errors/app-error';

/** The runtime's accounts service (always there in the server; unit tests may leave it out). */
export function accountsOf(accounts: Accounts | null): Accounts {
  if (accounts === null) throw new AppError('INTERNAL', 'accounts are not configured');
  return accounts;
}
