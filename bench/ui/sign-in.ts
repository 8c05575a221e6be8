import type { Browser } from '@playwright/test';

/**
 * Signs `username` in through the sign-in page once and saves the session (a cookie) to `file`:
 * the /coding pages are for people signed in, and the server limits sign-ins per address, so
 * every measured page reuses this one session.
 */
export async function signedInState(
  browser: Browser,
  url: string,
  person: { readonly username: string; readonly password: string },
  file: string,
): Promise<string> {
  const context = await browser.newContext({ baseURL: url });
  try {
    const page = await context.newPage();
    await page.goto('/sign-in');
    await page.getByLabel('Username', { exact: true }).fill(person.username);
    await page.getByLabel('Password', { exact: true }).fill(person.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((target) => !target.pathname.startsWith('/sign-in'), {
      timeout: 60_000,
    });
    await context.storageState({ path: file });
    return file;
  } finally {
    await context.close();
  }
}
