import type { Metadata } from 'next';
import Link from 'next/link';
import { CreateTaskForm } from '@/components/task-list/create-task-form';
import { signedInCaller } from '../signed-in';

export const dynamic = 'force-dynamic';

export const metadata: Metadata = { title: 'New task · Shadowbox' };

/** Creating a task: the form, then the task's own page (the form navigates there). */
export default async function NewTaskPage() {
  await signedInCaller('/coding/new');
  return (
    <>
      <p className="back-link">
        <Link href="/coding">← Tasks</Link>
      </p>
      <h1>New task</h1>
      <section className="card">
        <CreateTaskForm />
      </section>
    </>
  );
}
