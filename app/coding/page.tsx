import type { Metadata } from 'next';
import { SandboxStatus } from '@/components/status/sandbox-status';
import { CreateTaskForm } from '@/components/task-list/create-task-form';
import { TaskList } from '@/components/task-list/task-list';
import { WorkersPanel } from '@/components/workers/workers-panel';
import { signedInCaller } from './signed-in';

export const dynamic = 'force-dynamic';

export const metadata: Metadata = { title: 'Tasks · Shadowbox' };

export default async function CodingPage() {
  const { caller } = await signedInCaller('/coding');
  const [tasks, sandbox, workers] = await Promise.all([
    caller.tasks.list(),
    caller.system.sandbox(),
    caller.system.workers(),
  ]);
  return (
    <>
      <h1>Tasks</h1>
      <section aria-labelledby="create-heading" className="card">
        <h2 id="create-heading">New task</h2>
        <CreateTaskForm />
      </section>
      <section aria-labelledby="list-heading">
        <h2 id="list-heading">All tasks</h2>
        <TaskList initialTasks={tasks} />
      </section>
      <WorkersPanel initialWorkers={workers} initialTasks={tasks} />
      <SandboxStatus status={sandbox} />
    </>
  );
}
