import { formatTime, shortSha } from '../format';
import type { BatchPush } from './batch-types';

/** Where the approved batch was pushed before, newest last (the server's record). */
export function BatchPushes({ pushes }: { readonly pushes: readonly BatchPush[] }) {
  if (pushes.length === 0) return null;
  return (
    <ul aria-label="Pushes">
      {pushes.map((push, index) => (
        <li key={index}>
          Pushed{' '}
          <abbr className="mono" title={push.commit}>
            {shortSha(push.commit)}
          </abbr>{' '}
          to <span className="mono">{push.branch}</span> on {push.remote} by {push.by},{' '}
          <time dateTime={push.at}>{formatTime(push.at)}</time>
        </li>
      ))}
    </ul>
  );
}
