import Link from 'next/link';

export default function BatchNotFound() {
  return (
    <>
      <h1>No such batch</h1>
      <p>
        There is no batch with this id that you may see.{' '}
        <Link href="/coding/batches">See all batches</Link>.
      </p>
    </>
  );
}
