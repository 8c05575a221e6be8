import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createToken, createUser } from '../server/test-support/app-server';
import { test } from './support/fixtures';
import { people, signInThroughPage, type Who } from './support/people';
import { accountsFile, storageStateFile, type E2eAccounts } from './support/state';

test.use({ signedInAs: null });

/**
 * After the first admin exists (the first-admin spec, which this project depends on): the other
 * people, made with the real CLI, their tokens, and a signed-in browser state for each, so the
 * specs start signed in without signing in again (the server limits sign-ins per address).
 */
test('people, their tokens and their sessions', async ({ browser, shadowbox }) => {
  const { dataDir } = shadowbox;
  await createUser(dataDir, people.reviewer);
  await createUser(dataDir, people.author);
  const accounts: E2eAccounts = {
    agentToken: await createToken(dataDir, ['agent'], {
      name: 'e2e-agent',
      user: people.reviewer.username,
    }),
    reviewerToken: await createToken(dataDir, ['agent', 'reviewer'], {
      name: 'e2e-reviewer',
      user: people.reviewer.username,
    }),
    authorToken: await createToken(dataDir, ['agent'], {
      name: 'e2e-author-agent',
      user: people.author.username,
    }),
  };
  await mkdir(path.dirname(accountsFile(shadowbox)), { recursive: true });
  await writeFile(accountsFile(shadowbox), JSON.stringify(accounts));

  for (const who of ['admin', 'reviewer', 'author'] satisfies Who[]) {
    const context = await browser.newContext({ baseURL: shadowbox.url });
    try {
      const page = await context.newPage();
      await signInThroughPage(page, people[who]);
      await context.storageState({ path: storageStateFile(shadowbox, who) });
    } finally {
      await context.close();
    }
  }
});
