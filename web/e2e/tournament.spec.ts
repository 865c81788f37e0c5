// Tournaments (issue 26; docs/tournaments.md): a registered player creates a Dragon Master
// arena through the form and joins it, a second player (a guest, in another browser, who
// unchecks "Open my games automatically") joins from the page; the runner pairs them: the
// first is taken to the game by the page, the second follows "Go to your game"; the table
// names its tournament; they play the game to its end, and the end panel offers "Back to the
// tournament" (no rematch); the first comes back with it and sees the standings with the
// result counted; four more guests (joined over REST) are paired among themselves, so the
// page lists games to watch. Screenshots: test-results/screenshots/arena-end.png (the end
// panel only), arena-standings.png (1280 px) and arena-standings-phone.png (360 px).
import { expect, test, type Browser, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { playToEnd } from './masterplay';
import { shoot, shots } from './shoot';

const url = (): string =>
  process.env.DRAGONLAIR_E2E_URL ?? (JSON.parse(readFileSync(resolve(tmpdir(), 'dragonlair-e2e-server.json'), 'utf-8')) as { url: string }).url;

async function open(browser: Browser): Promise<Page> {
  const ctx = await browser.newContext({ baseURL: url(), locale: 'en-US', viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
  return ctx.newPage();
}

test('join an arena, play the paired game, see the standings', async ({ browser, playwright }) => {
  test.setTimeout(60_000);
  const a = await open(browser);
  const b = await open(browser);
  const made = await a.request.post('/api/auth/register', {
    data: { username: `arena${Date.now() % 1_000_000}`, password: 's3cret-pass', display_name: 'Ada' },
  });
  expect(made.ok()).toBe(true);

  await a.goto('/tournaments');
  await a.getByTestId('tournament-name').fill('Friday Arena');
  await a.getByTestId('tournament-game').selectOption('master');
  await a.getByTestId('tournament-create').click();
  await expect(a).toHaveURL(/\/tournaments\/[A-Za-z0-9_-]+$/);
  const id = /\/tournaments\/([^/?#]+)/.exec(a.url())![1]!;
  await a.getByTestId('tournament-join').click();
  await expect(a.getByTestId('tournament-withdraw')).toBeVisible();

  expect((await b.request.post('/api/auth/guest', { data: { display_name: 'Bo' } })).ok()).toBe(true);
  await b.goto(`/tournaments/${id}`);
  await b.getByTestId('tournament-auto').uncheck();
  await b.getByTestId('tournament-join').click();

  // paired at the runner's next round; the page reads it within its poll and opens the game
  // (for the first player), or offers it (the second, who unchecked that)
  await expect(b.getByTestId('tournament-go')).toBeVisible({ timeout: 10_000 });
  await b.getByTestId('tournament-go').click();
  for (const p of [a, b]) {
    await expect(p.getByTestId('master')).toBeVisible({ timeout: 10_000 });
    await expect(p.getByTestId('table-tournament')).toContainText('Friday Arena');
  }
  const table = /\/tables\/([^#/?]+)/.exec(a.url())![1]!;
  expect(/\/tables\/([^#/?]+)/.exec(b.url())![1]).toBe(table);

  // four more people (guests over REST): they are paired among themselves, games to watch
  for (const name of ['Cy', 'Di', 'Ed', 'Flo']) {
    const other = await playwright.request.newContext({ baseURL: url() });
    expect((await other.post('/api/auth/guest', { data: { display_name: name } })).ok()).toBe(true);
    expect((await other.post(`/api/tournaments/${id}/join`)).ok()).toBe(true);
  }

  await playToEnd([a, b]);
  // the second player leaves the arena (else the two would be paired again soon)
  expect((await b.request.post(`/api/tournaments/${id}/withdraw`)).ok()).toBe(true);
  for (const p of [a, b]) {
    await expect(p.getByTestId('tournament-back')).toBeVisible();
    await expect(p.getByTestId('rematch')).toHaveCount(0);
  }
  // a countdown back (for the one whose games open by themselves), which "Stay here" stops
  await expect(a.getByTestId('tournament-back-in')).toBeVisible();
  await expect(b.getByTestId('tournament-back-in')).toHaveCount(0);
  await a.getByTestId('tournament-stay').click();
  await expect(a.getByTestId('tournament-back-in')).toHaveCount(0);
  await a.getByTestId('end').screenshot({ path: resolve(shots, 'arena-end.png') });
  await a.getByTestId('tournament-back').click();
  await expect(a).toHaveURL(new RegExp(`/tournaments/${id}$`));
  const rows = a.getByTestId('standing');
  await expect(rows).toHaveCount(6);
  await expect(a.getByTestId('finished-games').locator('li')).toHaveCount(1);
  await expect(a.getByTestId('running-games').locator('li')).toHaveCount(2, { timeout: 10_000 });
  const scores = await a.getByTestId('standings').locator('tbody tr td:nth-child(3)').allInnerTexts();
  // one game counted: a win gives 2 (a draw 1 each), the others have 0
  expect(scores.map(Number).reduce((x, y) => x + y, 0)).toBe(2);
  await expect(a.getByTestId('tournament-clock')).toContainText('left');
  await shoot(a, 'arena-standings.png');
  await a.setViewportSize({ width: 360, height: 800 });
  await shoot(a, 'arena-standings-phone.png');
});
