import type { Accounts } from '../../../auth/accounts';
import { AppError } from '../../../errors/app-error';
import type { Actor } from '../../../tasks/task-api';
import { fakePerson } from '../../../test-support/actors';

/** Bearer tokens the fake authentication knows. */
export const tokens = {
  agent: 'agent-token-0123456789',
  reviewer: 'reviewer-token-0123456789',
} as const;

/** Who each fake token acts as: an author's agent token, a reviewer's agent+reviewer token. */
export const tokenActors = {
  agent: { kind: 'token', tokenId: 'tok-agent', scopes: ['agent'], person: fakePerson('alice') },
  reviewer: {
    kind: 'token',
    tokenId: 'tok-reviewer',
    scopes: ['agent', 'reviewer'],
    person: fakePerson('rita', 'reviewer'),
  },
} as const satisfies Record<keyof typeof tokens, Actor>;

const actors = new Map<string, Actor>([
  [tokens.agent, tokenActors.agent],
  [tokens.reviewer, tokenActors.reviewer],
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

/**
 * `Runtime['accounts']` for transport tests: every request is `session`'s (null: nobody signed
 * in), bearer tokens are `fakeAuthenticate`'s; the rest of the accounts service is not faked.
 */
export function fakeAccounts(session: Actor | null): Accounts {
  const absent = (): never => {
    throw new Error('the fake accounts only know who a request is');
  };
  return {
    get auth(): Accounts['auth'] {
      return absent();
    },
    sessionActor: () => Promise.resolve(session),
    authenticate: fakeAuthenticate,
    announceSetupLink: absent,
    checkSetupLink: absent,
    redeemSetupLink: absent,
    listTokens: absent,
    createToken: absent,
    revokeToken: absent,
    listPeople: absent,
    addPerson: absent,
    renamePerson: absent,
    listAudit: absent,
  };
}
