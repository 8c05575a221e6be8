import { expect, test } from './support/fixtures';
import { accountBar, people } from './support/people';

test.use({ signedInAs: null });

test('the one-time link printed at start creates the first admin, and works once', async ({
  page,
  shadowbox,
}) => {
  const link = shadowbox.setupLink;
  expect(link.startsWith(`${shadowbox.url}/setup?token=`), link).toBe(true);

  // Nobody has an account: the pages send you to sign in, and the sign-in page points at the link.
  await page.goto('/coding');
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fcoding$/);
  await expect(page.getByText(/Nobody has an account yet/)).toBeVisible();

  // The link: a form that makes the first admin and signs them in.
  await page.goto(link);
  await page.getByLabel('Username', { exact: true }).fill(people.admin.username);
  await page.getByLabel('Password', { exact: true }).fill(people.admin.password);
  await page.getByRole('button', { name: 'Create admin', exact: true }).click();
  await page.waitForURL(/\/coding$/);
  await expect(page.getByRole('heading', { name: 'Tasks', exact: true })).toBeVisible();
  await expect(accountBar(page)).toContainText(`Signed in as ${people.admin.username} (admin)`);
  await expect(accountBar(page).getByRole('link', { name: 'Audit', exact: true })).toBeVisible();

  // It worked once: opened again, it says so and offers no form.
  await page.goto(link);
  await expect(page.getByRole('alert').filter({ hasText: 'no longer valid' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create admin', exact: true })).toHaveCount(0);

  // And the sign-in page no longer points at a link.
  await page.context().clearCookies();
  await page.goto('/sign-in');
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  await expect(page.getByText(/Nobody has an account yet/)).toHaveCount(0);
});
