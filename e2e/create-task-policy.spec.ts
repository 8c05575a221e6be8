import { expect, test } from './support/fixtures';

test('a Git URL on a private address is refused next to the field, and the page stays', async ({
  page,
}) => {
  await page.goto('/coding/new');
  const start = page.url();
  // Same-document updates of the same URL (the router settling in) are not navigations away.
  const navigations: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame() && frame.url() !== start) navigations.push(frame.url());
  });

  const gitUrl = page.getByLabel('Git URL', { exact: true });
  await gitUrl.fill('https://127.0.0.1/x.git');
  await page.getByLabel('Test command', { exact: true }).fill('python3 -m pytest -q');
  await page.getByRole('button', { name: 'Create task', exact: true }).click();

  // The server's policy message, tied to the field (its accessible description) and visible.
  const refusal = /not public|URL_PRIVATE_ADDRESS/;
  await expect(gitUrl).toHaveAccessibleDescription(refusal);
  await expect(page.getByRole('alert').filter({ hasText: refusal })).toBeVisible();

  await expect(page).toHaveURL(start);
  expect(navigations).toEqual([]);
  // Still the same document: what was typed is still there.
  await expect(gitUrl).toHaveValue('https://127.0.0.1/x.git');
});
