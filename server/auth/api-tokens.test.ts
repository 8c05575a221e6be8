import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors/app-error';
import { fakePerson, fakeToken, fakeUser } from '../test-support/actors';
import { actorLabel, auditedAs, cliActor, type Actor } from './actor';
import {
  generateToken,
  hashToken,
  parseBearerToken,
  parseScopes,
  parseTokenName,
} from './api-tokens';
import { requireTokenScope } from './permissions';

function caught(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError, nothing was thrown');
}

const token = `sbx_${'A'.repeat(42)}w`;

describe('generateToken and hashToken', () => {
  it('makes sbx_ + 43 base64url characters, different every time', () => {
    const a = generateToken();
    const b = generateToken();
    expect(a).toMatch(/^sbx_[A-Za-z0-9_-]{43}$/);
    expect(b).not.toBe(a);
    expect(Buffer.from(a.slice(4), 'base64url')).toHaveLength(32);
    // The generated shape is what the header parser accepts.
    expect(parseBearerToken(`Bearer ${a}`)).toBe(a);
  });

  it('hashes the whole token, prefix included, as hex SHA-256', () => {
    expect(hashToken('sbx_abc')).toBe(createHash('sha256').update('sbx_abc').digest('hex'));
    expect(hashToken('sbx_abc')).not.toBe(createHash('sha256').update('abc').digest('hex'));
    expect(hashToken('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });
});

describe('parseBearerToken', () => {
  it.each([
    ['Bearer', `Bearer ${token}`],
    ['lower-case scheme', `bearer ${token}`],
    ['upper-case scheme', `BEARER ${token}`],
    ['extra blanks', `  Bearer \t ${token}  `],
  ])('accepts %s', (_, header) => {
    expect(parseBearerToken(header)).toBe(token);
  });

  it.each([
    ['null', null],
    ['undefined', undefined],
    ['empty', ''],
    ['blank', '   '],
  ])('refuses a missing header (%s)', (_, header) => {
    const error = caught(() => parseBearerToken(header));
    expect(error.code).toBe('UNAUTHENTICATED');
    expect(error.message).toMatch(/^missing Authorization header/);
  });

  it.each([
    ['another scheme', `Basic ${token}`],
    ['the scheme alone', 'Bearer'],
    ['the token alone', token],
    ['two tokens', `Bearer ${token} ${token}`],
    ['a glued scheme', `Bearer:${token}`],
  ])('refuses a malformed header (%s) without echoing it', (_, header) => {
    const error = caught(() => parseBearerToken(header));
    expect(error.code).toBe('UNAUTHENTICATED');
    expect(error.message).toBe("malformed Authorization header; expected 'Bearer <token>'");
  });

  it.each([
    ['no prefix', `Bearer ${'A'.repeat(46)}`],
    ['too short', `Bearer ${token.slice(0, -1)}`],
    ['too long', `Bearer ${token}A`],
    ['not base64url', `Bearer ${token.slice(0, -1)}+`],
    ['upper-case prefix', `Bearer SBX_${token.slice(4)}`],
  ])('refuses a malformed token (%s)', (_, header) => {
    const error = caught(() => parseBearerToken(header));
    expect(error.code).toBe('UNAUTHENTICATED');
    expect(error.message).toMatch(/^malformed bearer token/);
    expect(error.message).not.toContain(header.slice(7));
  });
});

describe('parseScopes', () => {
  it('deduplicates and puts scopes in canonical order', () => {
    expect(parseScopes(['agent'])).toEqual(['agent']);
    expect(parseScopes(['reviewer', 'agent', 'reviewer'])).toEqual(['agent', 'reviewer']);
  });

  it('refuses an empty list', () => {
    const error = caught(() => parseScopes([]));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toBe('a token needs at least one scope; valid scopes: agent, reviewer');
  });

  it.each(['admin', 'Agent', '', ' agent'])('refuses %j and names it', (bad) => {
    const error = caught(() => parseScopes(['agent', bad]));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toBe(
      `unknown scope ${JSON.stringify(bad)}; valid scopes: agent, reviewer`,
    );
  });
});

describe('parseTokenName', () => {
  it('defaults, trims and keeps ordinary names', () => {
    expect(parseTokenName(undefined)).toBe('unnamed');
    expect(parseTokenName('  ci agent ')).toBe('ci agent');
    expect(parseTokenName('x'.repeat(100))).toBe('x'.repeat(100));
  });

  it.each([
    ['empty', '  ', /must not be empty/],
    ['too long', 'x'.repeat(101), /at most 100 characters, got 101/],
    ['a newline', 'a\nb', /control characters/],
    ['an escape', 'a\u001b[31m', /control characters/],
  ])('refuses %s', (_, name, message) => {
    const error = caught(() => parseTokenName(name));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toMatch(message);
  });
});

describe('requireTokenScope', () => {
  const agent: Actor = fakeToken('alice', ['agent']);
  const reviewer: Actor = fakeToken('rita', ['reviewer']);

  it('lets a token with the scope through', () => {
    expect(() => {
      requireTokenScope(agent, 'agent');
    }).not.toThrow();
    expect(() => {
      requireTokenScope(reviewer, 'reviewer');
    }).not.toThrow();
  });

  it('refuses a token without the scope with FORBIDDEN and names the scopes it has', () => {
    const noReview = caught(() => {
      requireTokenScope(agent, 'reviewer');
    });
    expect(noReview.code).toBe('FORBIDDEN');
    expect(noReview.message).toBe("this token lacks the 'reviewer' scope (its scopes: agent)");
    expect(noReview.details).toEqual({ tokenId: 'token-alice', scope: 'reviewer' });
    const noAgent = caught(() => {
      requireTokenScope(reviewer, 'agent');
    });
    expect(noAgent.code).toBe('FORBIDDEN');
    expect(noAgent.message).toBe("this token lacks the 'agent' scope (its scopes: reviewer)");
    const none = caught(() => {
      requireTokenScope(fakeToken('nobody', []), 'agent');
    });
    expect(none.code).toBe('FORBIDDEN');
    expect(none.message).toBe("this token lacks the 'agent' scope (its scopes: none)");
  });

  it('lets a signed-in person and the CLI through (they act with their role, not scopes)', () => {
    for (const actor of [fakeUser('alice'), fakeUser('rita', 'reviewer'), cliActor]) {
      expect(() => {
        requireTokenScope(actor, 'reviewer');
      }).not.toThrow();
      expect(() => {
        requireTokenScope(actor, 'agent');
      }).not.toThrow();
    }
  });
});

describe('actorLabel', () => {
  it('labels a person by username, a token by its owner and id, and the CLI by kind', () => {
    expect(actorLabel(fakeUser('alice'))).toBe('alice');
    const token: Actor = {
      kind: 'token',
      tokenId: 'ck123',
      scopes: ['agent'],
      person: fakePerson('alice'),
    };
    expect(actorLabel(token)).toBe('alice (token:ck123)');
    expect(actorLabel(cliActor)).toBe('cli');
  });

  it("audits a person's and a token's rows with the person's id, the CLI's without one", () => {
    expect(auditedAs(fakeUser('alice'))).toEqual({ actor: 'alice', actorUserId: 'user-alice' });
    expect(auditedAs(fakeToken('alice', ['agent']))).toEqual({
      actor: 'alice (token:token-alice)',
      actorUserId: 'user-alice',
    });
    expect(auditedAs(cliActor)).toEqual({ actor: 'cli' });
  });
});
