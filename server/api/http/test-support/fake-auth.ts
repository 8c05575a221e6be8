import { AppError } from '../../../errors/app-error';
import type { Actor } from '../../../tasks/task-api';

/** Bearer tokens the fake authentication knows. */
export const tokens = {
  agent: 'agent-token-0123456789',
  reviewer: 'reviewer-token-0123456789',
} as const;

const actors = new Map<string, Actor>([
  [tokens.agent, { kind: 'token', tokenId: 'tok-agent', scopes: ['agent'] }],
  [tokens.reviewer, { kind: 'token', tokenId: 'tok-reviewer', scopes: ['agent', 'reviewer'] }],
]);

/** `Runtime['authenticate']` over `tokens`: UNAUTHENTICATED for anything else. */
export function fakeAuthenticate(authorization: string | null): Promise<Actor> {
  const match = /^Bearer (\S+)$/.exec(authorization ?? '');
  const actor = match?.[1] === undefined ? undefined : actors.get(match[1]);
  if (actor === undefined) {
    return Promise.reject(new AppError('UNAUTHENTICATED', 'a valid bearer token is required'));
  }
  return Promise.resolve(actor);
}
