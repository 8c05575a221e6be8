import { z } from 'zod';
import { roles, scopesAllowed, tokenScopes, type Actor } from '../../../../auth';
import { anonymousProcedure, authedProcedure, router } from '../../trpc';
import { accountsOf } from './require-accounts';

const setupSecret = z.string().min(1).max(200);
const username = z.string().min(1).max(64);
const password = z.string().min(1).max(1024);

const personSchema = z.object({
  username: z.string(),
  role: z.enum(roles),
  disabledAt: z.string().nullable(),
  createdAt: z.string(),
});

const tokenSchema = z.object({
  id: z.string(),
  user: z.string().nullable(),
  name: z.string(),
  scopes: z.array(z.enum(tokenScopes)),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});

const iso = (date: Date | null): string | null => date?.toISOString() ?? null;

/** Who is signed in, and the scopes they may give a token (the token form offers those). */
function me(actor: Actor) {
  const { username, role } =
    actor.kind === 'cli'
      ? { username: 'cli', role: 'admin' as const }
      : { username: actor.person.username, role: actor.person.role };
  return { username, role, tokenScopes: [...scopesAllowed(role)] };
}

/** The signed-in person's own account: who they are, their tokens; and the first-run set-up. */
export const accountRouter = router({
  me: authedProcedure
    .output(
      z.object({
        username: z.string(),
        role: z.enum(roles),
        tokenScopes: z.array(z.enum(tokenScopes)),
      }),
    )
    .query(({ ctx }) => me(ctx.actor)),
  setupLinkValid: anonymousProcedure
    .input(z.object({ token: setupSecret }))
    .output(z.boolean())
    .query(({ ctx, input }) => accountsOf(ctx.accounts).checkSetupLink(input.token)),
  /** Creates the first admin with the one-time link; the page then signs them in. */
  redeemSetupLink: anonymousProcedure
    .input(z.object({ token: setupSecret, username, password }))
    .output(z.object({ username: z.string() }))
    .mutation(async ({ ctx, input }) => {
      const person = await accountsOf(ctx.accounts).redeemSetupLink({
        secret: input.token,
        username: input.username,
        password: input.password,
      });
      return { username: person.username };
    }),
  tokens: authedProcedure.output(z.array(tokenSchema)).query(async ({ ctx }) =>
    (await accountsOf(ctx.accounts).listTokens(ctx.actor)).map((t) => ({
      ...t,
      createdAt: t.createdAt.toISOString(),
      lastUsedAt: iso(t.lastUsedAt),
      revokedAt: iso(t.revokedAt),
    })),
  ),
  /** A new token of the signed-in person's; the secret is in this answer only. */
  createToken: authedProcedure
    .input(
      z.object({
        name: z.string().min(1).max(100),
        scopes: z.array(z.enum(tokenScopes)).min(1),
      }),
    )
    .output(z.object({ id: z.string(), token: z.string(), name: z.string() }))
    .mutation(async ({ ctx, input }) => {
      const created = await accountsOf(ctx.accounts).createToken(ctx.actor, input);
      return { id: created.id, token: created.token, name: created.name };
    }),
  revokeToken: authedProcedure
    .input(z.object({ id: z.string().min(1).max(64) }))
    .output(z.object({ id: z.string() }))
    .mutation(async ({ ctx, input }) => {
      const revoked = await accountsOf(ctx.accounts).revokeToken(ctx.actor, input.id);
      return { id: revoked.id };
    }),
});

/** The admin's views: people and the audit log. */
export const adminRouter = router({
  people: authedProcedure.output(z.array(personSchema)).query(async ({ ctx }) =>
    (await accountsOf(ctx.accounts).listPeople(ctx.actor)).map((p) => ({
      username: p.username,
      role: p.role,
      disabledAt: iso(p.disabledAt),
      createdAt: p.createdAt.toISOString(),
    })),
  ),
  addPerson: authedProcedure
    .input(z.object({ username, password, role: z.enum(roles) }))
    .output(z.object({ username: z.string() }))
    .mutation(async ({ ctx, input }) => {
      const person = await accountsOf(ctx.accounts).addPerson(ctx.actor, input);
      return { username: person.username };
    }),
  /** Renames a person (people cannot rename themselves); audited with the person's id. */
  renamePerson: authedProcedure
    .input(z.object({ from: username, to: username }))
    .output(z.object({ username: z.string() }))
    .mutation(async ({ ctx, input }) => {
      const person = await accountsOf(ctx.accounts).renamePerson(ctx.actor, input);
      return { username: person.username };
    }),
  audit: authedProcedure
    .input(
      z.object({
        taskId: z.string().min(1).max(64).optional(),
        username: z.string().min(1).max(64).optional(),
        limit: z.int().min(1).max(1000).optional(),
      }),
    )
    .output(
      z.array(
        z.object({
          id: z.string(),
          actor: z.string(),
          /** Who acted and who was acted on, by id: names change, ids do not. */
          actorUserId: z.string().nullable(),
          action: z.string(),
          target: z.string().nullable(),
          subjectUserId: z.string().nullable(),
          details: z.unknown(),
          createdAt: z.string(),
        }),
      ),
    )
    .query(async ({ ctx, input }) =>
      (await accountsOf(ctx.accounts).listAudit(ctx.actor, input)).map((entry) => ({
        id: entry.id,
        actor: entry.actor,
        actorUserId: entry.actorUserId,
        action: entry.action,
        target: entry.target,
        subjectUserId: entry.subjectUserId,
        details: entry.details,
        createdAt: entry.createdAt.toISOString(),
      })),
    ),
});
