import type { Metadata } from 'next';
import { AuditFilters } from '@/components/account/audit-filters';
import { AuditTable } from '@/components/account/audit-table';
import type { AuditEntry } from '@/components/trpc/router-types';
import { signedInCaller } from '../signed-in';

export const dynamic = 'force-dynamic';

export const metadata: Metadata = { title: 'Audit log · Shadowbox' };

const shown = 500;

const one = (value: string | string[] | undefined): string =>
  typeof value === 'string' ? value.trim().slice(0, 64) : '';

/** `/coding/audit?taskId=…&person=…`: who did what and when (admins only), newest first. */
export default async function AuditPage({
  searchParams,
}: {
  searchParams: Promise<{ taskId?: string | string[]; person?: string | string[] }>;
}) {
  const query = await searchParams;
  const taskId = one(query.taskId);
  const person = one(query.person);
  const search = new URLSearchParams({
    ...(taskId === '' ? {} : { taskId }),
    ...(person === '' ? {} : { person }),
  }).toString();
  const { caller } = await signedInCaller(`/coding/audit${search === '' ? '' : `?${search}`}`);
  const me = await caller.account.me();
  if (me.role !== 'admin') {
    return (
      <>
        <h1>Audit log</h1>
        <p className="form-error" role="alert">
          Forbidden (403): the audit log is for admins. You are signed in as {me.username}, a{' '}
          {me.role}.
        </p>
      </>
    );
  }
  let entries: AuditEntry[] = [];
  let refused: string | null = null;
  try {
    entries = await caller.admin.audit({
      ...(taskId === '' ? {} : { taskId }),
      ...(person === '' ? {} : { username: person }),
      limit: shown,
    });
  } catch (error) {
    refused = error instanceof Error ? error.message : String(error);
  }
  return (
    <>
      <h1>Audit log</h1>
      <p>
        Who created, submitted, approved, rejected, reopened and cancelled what, and when. The log
        is append-only; the newest {shown} entries that match are shown, newest first.
      </p>
      <AuditFilters taskId={taskId} person={person} />
      {refused === null ? (
        <AuditTable entries={entries} filtered={search !== ''} />
      ) : (
        <p className="form-error" role="alert">
          {refused}
        </p>
      )}
    </>
  );
}
