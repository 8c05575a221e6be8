import Link from 'next/link';

export default function TaskNotFound() {
  return (
    <>
      <h1>No such task</h1>
      <p>
        There is no task with this id. <Link href="/coding">See all tasks</Link>.
      </p>
    </>
  );
}
