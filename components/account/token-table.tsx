import { formatTime } from '../format';
import type { ApiToken } from '../trpc/router-types';

/** Tokens, newest first: what each may do, when it was made and last used, whether it works. */
export function TokenTable({
  tokens,
  showOwner,
  revoking,
  onRevoke,
}: {
  readonly tokens: readonly ApiToken[];
  /** An admin sees everyone's tokens: say whose each is. */
  readonly showOwner: boolean;
  /** The token being revoked right now, if any. */
  readonly revoking: string | null;
  readonly onRevoke: (id: string) => void;
}) {
  if (tokens.length === 0) return <p>No tokens yet.</p>;
  const sorted = [...tokens].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return (
    <div className="table-scroll">
      <table className="tokens">
        <caption className="visually-hidden">API tokens, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            {showOwner ? <th scope="col">Owner</th> : null}
            <th scope="col">Scopes</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">Status</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {sorted.map((token) => (
            <tr key={token.id}>
              <th scope="row">{token.name}</th>
              {showOwner ? <td>{token.user ?? '—'}</td> : null}
              <td className="mono">{token.scopes.join(', ')}</td>
              <td>
                <time dateTime={token.createdAt}>{formatTime(token.createdAt)}</time>
              </td>
              <td>
                {token.lastUsedAt === null ? (
                  'never'
                ) : (
                  <time dateTime={token.lastUsedAt}>{formatTime(token.lastUsedAt)}</time>
                )}
              </td>
              <td>
                {token.revokedAt === null ? (
                  <span className="token-active">active</span>
                ) : (
                  <span className="token-revoked">
                    revoked <time dateTime={token.revokedAt}>{formatTime(token.revokedAt)}</time>
                  </span>
                )}
              </td>
              <td>
                {token.revokedAt === null ? (
                  <button
                    type="button"
                    disabled={revoking !== null}
                    onClick={() => onRevoke(token.id)}
                  >
                    Revoke {token.name}
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
