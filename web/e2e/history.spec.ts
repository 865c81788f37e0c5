// After the game: a rated Dragon Master game against a bot played to the end through the UI,
// the end screen's rating change, the replay stepped through as one's own seat and as a
// spectator (every replay answer scanned: no event for the other seat, no private view of a
// spectator), the leaderboard, the player's profile with its rating chart, and the rules page
// with every card in English and German. Screenshots go to test-results/screenshots/.
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { objects } from './frames';

const here = dirname(fileURLToPath(import.meta.url));
const url = (): string =>
  process.env.DRAGONLAIR_E2E_URL ?? (JSON.parse(readFileSync(resolve(tmpdir(), 'dragonlair-e2e-server.json'), 'utf-8')) as { url: string }).url;
const shots = resolve(here, '../test-results/screenshots');
const cat = (lang: string) => (JSON.parse(readFileSync(resolve(here, `../public/i18n/${lang}.json`), 'utf-8')) as { messages: Record<string, string> }).messages;

async function playToTheEnd(page: Page): Promise<void> {
  const master = page.getByTestId('master');
  for (let i = 0; i < 200 && (await page.getByTestId('end').count()) === 0; i++) {
    if ((await master.getAttribute('data-my-turn')) !== 'true') {
      await page.waitForTimeout(50);
      continue;
    }
    const placed = await master.getAttribute('data-placed');
    await page.locator('.hand button.card:not([disabled])').first().click();
    await page.locator('button.cell.legal:not([disabled])').first().click();
    await expect.poll(async () => (await master.getAttribute('data-placed')) !== placed || (await page.getByTestId('end').count()) > 0).toBe(true);
  }
  await expect(page.getByTestId('end')).toBeVisible();
}

test('a rated game, its rating change, replay as seat and spectator, leaderboard, profile', async ({ browser }) => {
  const en = cat('en');
  const ctx = await browser.newContext({ baseURL: url(), locale: 'en-US' });
  const page = await ctx.newPage();
  const replays: Record<string, unknown>[] = [];
  page.on('response', async (r) => {
    if (r.url().includes('/replay?') && r.ok()) replays.push((await r.json()) as Record<string, unknown>);
  });

  await page.goto('/');
  await page.locator('#game').selectOption('master');
  await page.locator('#seat-1').selectOption('bot');
  await page.locator('#bot-1').selectOption('random');
  await page.getByLabel(en['web.table.rated']!).check();
  await page.getByTestId('create').click();
  await page.getByTestId('start').click();
  await playToTheEnd(page);
  const tableId = /\/tables\/([^/#?]+)/.exec(page.url())![1]!;
  await expect(page.getByTestId('rating-change')).toBeVisible({ timeout: 10_000 });
  await page.screenshot({ path: resolve(shots, 'end-of-game-rated.png'), fullPage: true });

  // the replay, as my seat: starts at the end; step back, to the start, forward by keyboard
  await page.getByTestId('to-replay').click();
  const replay = page.getByTestId('replay');
  await expect(replay).toHaveAttribute('data-perspective', '0');
  const total = Number(/(\d+)\D*$/.exec((await page.getByTestId('replay-step').textContent()) ?? '')![1]);
  expect(total).toBeGreaterThan(16); // 16 placements and the deal's chance outcomes
  await expect(replay).toHaveAttribute('data-at', String(total));
  await page.getByTestId('replay-back').click();
  await expect(replay).toHaveAttribute('data-at', String(total - 1));
  await page.keyboard.press('Home');
  await expect(replay).toHaveAttribute('data-at', '0');
  for (let i = 0; i < 12; i++) await page.keyboard.press('ArrowRight');
  await expect(replay).toHaveAttribute('data-at', '12');
  await expect(page.getByTestId('master')).toBeVisible();
  await expect(page.locator('button.cell.legal')).toHaveCount(0); // watched, not played
  await page.screenshot({ path: resolve(shots, 'replay-master-seat.png'), fullPage: true });

  // as a spectator: nobody's hand
  await page.getByTestId('replay-as').selectOption('spectator');
  await expect(replay).toHaveAttribute('data-perspective', 'spectator');
  await page.getByTestId('replay-forward').click();
  await expect(replay).toHaveAttribute('data-at', '13');

  expect(replays.length).toBeGreaterThan(4);
  for (const r of replays) {
    const perspective = r.perspective as number | null;
    const scanned = { steps: r.steps, view: r.view };
    for (const o of objects(scanned)) {
      if ('code' in o && 'to' in o && o.to !== null && o.to !== undefined) expect(o.to).toBe(perspective);
    }
    if (perspective === null) expect((r.view as { private: unknown }).private).toBeNull();
  }

  // the leaderboard: me and the bot, rated; my name leads to my profile with its chart
  await page.getByRole('link', { name: en['web.nav.leaderboards']! }).click();
  await page.getByRole('link', { name: en['web.game.master']!, exact: true }).click();
  await expect(page.getByTestId('leaderboard')).toHaveAttribute('data-game', 'master');
  await expect(page.getByTestId('leader')).toHaveCount(2);
  await page.screenshot({ path: resolve(shots, 'leaderboard-master.png'), fullPage: true });
  await page.getByTestId('leader').locator('a').first().click();
  await expect(page.getByTestId('profile')).toBeVisible();
  await expect(page.getByTestId('rating')).toHaveCount(1);
  await expect(page.getByTestId('rating').locator('svg polyline')).toHaveCount(1);
  await expect(page.locator(`a[href="/tables/${tableId}/replay"]`)).toBeVisible();
  await page.screenshot({ path: resolve(shots, 'profile.png'), fullPage: true });

  // finished games list the table
  await page.getByRole('link', { name: en['web.nav.replays']! }).click();
  await expect(page.locator(`[data-testid=finished] a[href="/tables/${tableId}/replay"]`)).toBeVisible();
  await ctx.close();
});

test('the rules of each game with every card, in English and in German, on a phone', async ({ browser }) => {
  const de = cat('de');
  const ctx = await browser.newContext({ baseURL: url(), locale: 'de-DE', viewport: { width: 360, height: 740 } });
  const page = await ctx.newPage();
  await page.goto('/rules/fist');
  const rules = page.getByTestId('rules');
  await expect(rules.locator('table caption')).toHaveText(['Figuren']);
  await expect(rules.locator('tbody tr')).toHaveCount(28); // 8 standard and 20 kinds of special (25 cards)
  await page.screenshot({ path: resolve(shots, 'rules-fist-de-phone.png'), fullPage: true });
  await page.getByRole('link', { name: de['web.game.farkle']!, exact: true }).click();
  await expect(rules).toHaveAttribute('data-game', 'farkle');
  await expect(rules.locator("table")).toHaveCount(4); // scoring, farkle risk, companions, items
  await page.getByRole('link', { name: de['web.game.master']!, exact: true }).click();
  await expect(rules.locator('table caption').first()).toHaveText('Die Karten');
  // no page wider than the phone
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await ctx.close();
});

test('the clocks of a real-time table count down for the seat to move', async ({ browser }) => {
  const en = cat('en');
  const ctx = await browser.newContext({ baseURL: url(), locale: 'en-US' });
  const page = await ctx.newPage();
  await page.goto('/');
  await page.locator('#game').selectOption('master');
  await page.locator('#seat-1').selectOption('bot');
  await page.locator('#bot-1').selectOption('random');
  await page.getByRole('combobox', { name: en['web.clock.title']! }).selectOption('realtime');
  await page.getByLabel(en['web.clock.minutes']!).fill('2');
  await page.getByTestId('create').click();
  await page.getByTestId('start').click();
  const master = page.getByTestId('master');
  await expect(page.getByTestId('clocks')).toBeVisible();
  await expect(master).toHaveAttribute('data-my-turn', 'true', { timeout: 15_000 });
  const mine = page.getByTestId('clock-0');
  await expect(mine).toHaveClass(/running/);
  await expect(page.getByTestId('clock-1')).not.toHaveClass(/running/);
  const first = await mine.locator('.time').textContent();
  expect(first).toMatch(/^[12]:\d\d$/);
  await expect.poll(async () => mine.locator('.time').textContent(), { timeout: 5000 }).not.toBe(first);
  await expect(mine).toHaveAttribute('aria-label', /left, running/);
  await page.screenshot({ path: resolve(shots, 'master-clock.png'), fullPage: true });
  await ctx.close();
});

test('a Dragon Master match against a bot, round after round to two dragons (M5)', async ({ browser }) => {
  const ctx = await browser.newContext({ baseURL: url(), locale: 'en-US' });
  const page = await ctx.newPage();
  await page.goto('/');
  await page.locator('#game').selectOption('master');
  await page.locator('#opt-master-match').check();
  await page.locator('#seat-1').selectOption('bot');
  await page.locator('#bot-1').selectOption('random');
  await page.getByTestId('create').click();
  await page.getByTestId('start').click();
  const master = page.getByTestId('master');
  await expect(master.locator('.dragons')).toHaveCount(2);
  await playToTheEnd(page);
  // every round's final comparison is shown, and the match ended at two dragons
  const rounds = Number(await master.getAttribute('data-round'));
  await expect(page.locator('table.compare')).toHaveCount(rounds);
  expect(rounds).toBeGreaterThanOrEqual(2);
  await expect(master.locator('.dragons').filter({ hasText: /\b2\b/ })).toHaveCount(1);
  await page.screenshot({ path: resolve(shots, 'master-match-end.png'), fullPage: true });
  await ctx.close();
});
