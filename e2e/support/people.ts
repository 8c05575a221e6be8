import { expect, type Page } from '@playwright/test';
import { testPassword } from '../../server/test-support/app-server';

/**
 * The people of the e2e run. The admin is made through the one-time set-up link (the first-admin
 * spec); the others with the real CLI (`shadowbox user add`) once the admin exists.
 */
export const people = {
  admin: { username: 'e2e-admin', role: 'admin', password: testPassword },
  reviewer: { username: 'e2e-reviewer', role: 'reviewer', password: testPassword },
  author: { username: 'e2e-author', role: 'author', password: testPassword },
} as const;

export type Who = keyof typeof people;

/** Signs in through the page, as a person would; resolves once the page has moved on. */
export async function signInThroughPage(
  page: Page,
  person: { readonly username: string; readonly password: string },
  path = '/sign-in',
): Promise<void> {
  await page.goto(path);
  await page.getByLabel('Username', { exact: true }).fill(person.username);
  await page.getByLabel('Password', { exact: true }).fill(person.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).not.toHaveURL(/\/sign-in(?:\?|$)/);
}

/** The bar every /coding page shows to whoever is signed in. */
export const accountBar = (page: Page) => page.getByRole('navigation', { name: 'Account' });
