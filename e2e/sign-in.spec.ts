import { expect, test } from './support/fixtures';
import { accountBar, people } from './support/people';

test.use({ signedInAs: null });

test('sign in, come back to the page asked for, and sign out', async ({ page }) => {
  const { reviewer } = people;
  await page.goto('/coding/tokens');
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fcoding%2Ftokens$/);
  await page.getByLabel('Username', { exact: true }).fill(reviewer.username);
  await page.getByLabel('Password', { exact: true }).fill(reviewer.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();

  await page.waitForURL(/\/coding\/tokens$/);
  await expect(accountBar(page)).toContainText(`Signed in as ${reviewer.username} (reviewer)`);
  await expect(accountBar(page).getByRole('link', { name: 'Tokens', exact: true })).toBeVisible();
  // The audit log is the admin's.
  await expect(accountBar(page).getByRole('link', { name: 'Audit', exact: true })).toHaveCount(0);

  await accountBar(page).getByRole('button', { name: 'Sign out', exact: true }).click();
  await page.waitForURL(/\/sign-in$/);
  // Signed out for the server too: the task list asks to sign in again.
  await page.goto('/coding');
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fcoding$/);
});

test('a wrong password is refused with the server’s message, and nobody is signed in', async ({
  page,
}) => {
  await page.goto('/sign-in');
  await page.getByLabel('Username', { exact: true }).fill(people.author.username);
  await page.getByLabel('Password', { exact: true }).fill('not the password at all');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: /invalid username or password/i }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.goto('/coding');
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fcoding$/);
});

test('after signing in, a `next` on another site is not followed', async ({ page, shadowbox }) => {
  await page.goto(`/sign-in?next=${encodeURIComponent('https://evil.example/coding')}`);
  await page.getByLabel('Username', { exact: true }).fill(people.author.username);
  await page.getByLabel('Password', { exact: true }).fill(people.author.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(`${shadowbox.url}/coding`);
  await expect(accountBar(page)).toContainText(`Signed in as ${people.author.username} (author)`);
  // Signed in already: the sign-in page goes on, and `//host` is another site too.
  await page.goto('/sign-in?next=//evil.example/coding');
  await page.waitForURL(`${shadowbox.url}/coding`);
});
