/** Who asks. Tokens carry scopes; the local browser UI and the CLI act as the machine's user. */
export type Actor =
  | { readonly kind: 'token'; readonly tokenId: string; readonly scopes: readonly Scope[] }
  | { readonly kind: 'browser' }
  | { readonly kind: 'cli' };

export type Scope = 'agent' | 'reviewer';

/** How an actor is written in audit rows, events and `author` columns. */
export function actorLabel(actor: Actor): string {
  switch (actor.kind) {
    case 'token':
      return `token:${actor.tokenId}`;
    case 'browser':
      return 'browser';
    case 'cli':
      return 'cli';
  }
}
