import { describe, expect, it } from 'vitest';
import type { Actor, Person } from './actor';
import { cliActor } from './actor';
import { requireTaskRight, scopesAllowed, taskRights, taskVisibility } from './permissions';

const person = (id: string, role: Person['role'], teams: Person['teams'] = []): Person => ({
  id,
  username: id,
  role,
  teams,
});
const user = (p: Person): Actor => ({ kind: 'user', person: p });
const token = (p: Person, scopes: ('agent' | 'reviewer')[]): Actor => ({
  kind: 'token',
  tokenId: `t-${p.id}`,
  scopes,
  person: p,
});
const rights = (actor: Actor, task: { ownerId: string | null; teamId: string | null }) =>
  [...taskRights(actor, task)].sort();

const alice = person('alice', 'reviewer');
const bob = person('bob', 'author');
const own = (p: Person) => ({ ownerId: p.id, teamId: null });

describe('task rights', () => {
  it('an author drives their own task but cannot review it', () => {
    expect(rights(user(bob), own(bob))).toEqual(['cancel', 'comment', 'see', 'steer', 'submit']);
  });

  it("steering (send to review now, accept known failures) is the owner's, a reviewer's or an admin's", () => {
    const carol = person('carol', 'author', [{ teamId: 'core', role: 'author' }]);
    const shared = { ownerId: bob.id, teamId: 'core' };
    expect(taskRights(user(bob), shared).has('steer')).toBe(true);
    // A teammate who may submit and cancel does not decide what the owner's task waits for.
    expect(taskRights(user(carol), shared).has('steer')).toBe(false);
    expect(taskRights(user(carol), shared).has('submit')).toBe(true);
    expect(taskRights(user(person('root', 'admin')), shared).has('steer')).toBe(true);
    expect(() => requireTaskRight(user(carol), { id: 'T3', ...shared }, 'steer')).toThrow(
      expect.objectContaining({
        code: 'FORBIDDEN',
        message:
          "sending a task to review now or accepting its known failures needs the task's owner, a reviewer or an admin",
      }),
    );
  });

  it("nobody but an admin sees another person's task (it does not exist for them)", () => {
    expect(rights(user(alice), own(bob))).toEqual([]);
    expect(rights(token(alice, ['agent', 'reviewer']), own(bob))).toEqual([]);
    expect(rights(user(person('root', 'admin')), own(bob))).toContain('review');
    expect(() => requireTaskRight(user(alice), { id: 'T1', ...own(bob) }, 'see')).toThrow(
      expect.objectContaining({ code: 'NOT_FOUND', message: 'no task T1' }),
    );
  });

  it('a token never exceeds its scopes, nor its owner', () => {
    expect(rights(token(alice, ['agent']), own(alice))).toEqual([
      'cancel',
      'comment',
      'see',
      'steer',
      'submit',
    ]);
    expect(rights(token(alice, ['reviewer']), own(alice))).toEqual([
      'comment',
      'reopen',
      'review',
      'see',
      'steer',
    ]);
    // An author's token with a reviewer scope (refused at creation) still cannot review.
    expect(rights(token(bob, ['reviewer']), own(bob))).toEqual(['comment', 'see', 'steer']);
  });

  it('a team member acts with their team role, never above their own', () => {
    const carol = person('carol', 'author', [{ teamId: 'core', role: 'reviewer' }]);
    const dave = person('dave', 'reviewer', [{ teamId: 'core', role: 'author' }]);
    const shared = { ownerId: bob.id, teamId: 'core' };
    expect(rights(user(carol), shared)).toEqual(['cancel', 'comment', 'see', 'submit']);
    expect(rights(user(dave), shared)).toEqual(['cancel', 'comment', 'see', 'submit']);
    expect(rights(user(alice), shared)).toEqual([]);
  });

  it('an author who sees a task but may not review it is told why (FORBIDDEN)', () => {
    expect(() => requireTaskRight(user(bob), { id: 'T2', ...own(bob) }, 'review')).toThrow(
      expect.objectContaining({ code: 'FORBIDDEN' }),
    );
  });

  it('the CLI and admins see every task; others their own and their teams’', () => {
    expect(taskVisibility(cliActor)).toEqual({ all: true });
    expect(
      taskVisibility(user(person('carol', 'author', [{ teamId: 'core', role: 'author' }]))),
    ).toEqual({
      all: false,
      ownerId: 'carol',
      teamIds: ['core'],
    });
  });

  it('an author may only make agent tokens', () => {
    expect(scopesAllowed('author')).toEqual(['agent']);
    expect(scopesAllowed('reviewer')).toEqual(['agent', 'reviewer']);
  });
});
