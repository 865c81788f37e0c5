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
import { shoot } from './shoot';
import { noConfirm } from './settings';

const here = dirname(fileURLToPath(import.meta.url));
const url = (): string =>
  process.env.DRAGONLAIR_E2E_URL ?? (JSON.parse(readFileSync(resolve(tmpdir(), 'dragonlair-e2e-server.json'), 'utf-8')) as { url: string }).url;
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
  await noConfirm(ctx); // each move sent on its first click (e2e/settings.ts)
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
  // each seat's rating, before -> after (me and the bot), said to be a rated game; my name
  // leads to my profile (a bot has none)
  const changes = page.getByTestId('rating-change');
  await expect(changes).toHaveCount(2, { timeout: 10_000 });
  for (const text of await changes.allTextContents()) expect(text).toMatch(/^-?\d+\.\d → -?\d+\.\d \([+-]\d+\.\d\)$/);
  await expect(changes.first()).toHaveAttribute('aria-label', /rating: .* → /);
  await expect(page.getByTestId('end-rated')).toBeVisible();
  // a guest's profile is addressed as @<id>, never by the internal guest-<hex> handle
  const me = (await (await page.request.get('/api/me')).json()) as { profile: string };
  expect(me.profile).toMatch(/^@\d+$/);
  await expect(page.locator(`[data-testid=end] a[href="/users/${me.profile}"]`)).toHaveCount(1);
  await expect(page.locator('[data-testid=end] a[href^="/users/"]')).toHaveCount(1);
  await shoot(page, 'end-of-game-rated.png');

  // the replay, as my seat: starts at the end; step back, to the start, forward by keyboard
  await page.getByTestId('end-replay').click();
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
  await shoot(page, 'replay-master-seat.png');

  // as a spectator: nobody's hand
  await page.getByTestId('replay-as').selectOption('spectator');
  await expect(replay).toHaveAttribute('data-perspective', 'spectator');
  await page.getByTestId('replay-forward').click();
  await expect(replay).toHaveAttribute('data-at', '13');
  await page.keyboard.press('End');
  await expect(replay).toHaveAttribute('data-at', String(total));
  await expect(page.getByTestId('end-replay')).toHaveCount(0); // inside the replay already
  // on a phone: nothing wider than the screen
  await page.setViewportSize({ width: 360, height: 740 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await shoot(page, 'replay-master-spectator-phone.png');
  await page.setViewportSize({ width: 1280, height: 720 });
  // and back to my seat, at the same step
  await page.getByTestId('replay-as').selectOption('seat');
  await expect(replay).toHaveAttribute('data-perspective', '0');
  await expect(replay).toHaveAttribute('data-at', String(total));

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
  // (a server that has run other rated Master games lists their players too: a run of the
  // specs again against the same server)
  const leaders = page.getByTestId('leader');
  const mine = leaders.filter({ has: page.locator(`a[href="/users/${me.profile}"]`) });
  await expect(mine).toHaveCount(1);
  await expect.poll(() => leaders.count()).toBeGreaterThanOrEqual(2);
  await expect(leaders.filter({ hasText: en['web.leaders.bot']! }).first()).toBeVisible();
  await shoot(page, 'leaderboard-master.png');
  await mine.locator('a').click();
  await expect(page.getByTestId('profile')).toBeVisible();
  await expect(page.getByTestId('rating')).toHaveCount(1);
  // the rating over the games: a line from two games on, a dot for the first one
  await expect(page.getByTestId('rating').locator('svg polyline, svg circle')).toHaveCount(1);
  await expect(page.locator(`a[href="/tables/${tableId}/replay"]`)).toBeVisible();
  await shoot(page, 'profile.png');

  // finished games list the table, among mine first and among all
  await page.getByRole('link', { name: en['web.nav.replays']! }).click();
  await expect(page.locator(`[data-testid=mine] a[href="/tables/${tableId}/replay"]`)).toBeVisible();
  await expect(page.locator(`[data-testid=finished] a[href="/tables/${tableId}/replay"]`)).toBeVisible();
  await shoot(page, 'replays.png');
  await ctx.close();
});

// Fist and Farkle tables of bots only, to the end; a person who sat at neither watches each
// replay as a spectator, stepped through by keys and slider, drawn by the game's own screen
// (nothing to play), and no answer carries a seat's private view or events.
for (const [game, options, seats] of [['fist', { max_turns: 1 }, 3], ['farkle', { max_turns: 2 }, 2]] as const) {
  test(`the replay of a ${game} game among bots, watched as a spectator`, async ({ browser }) => {
    const ctx = await browser.newContext({ baseURL: url(), locale: 'en-US' });
    await noConfirm(ctx); // each move sent on its first click (e2e/settings.ts)
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    const answers: Record<string, unknown>[] = [];
    page.on('response', async (r) => {
      if (r.url().includes('/replay?') && r.ok()) answers.push((await r.json()) as Record<string, unknown>);
    });
    await page.goto('/'); // a guest
    await expect(page.getByTestId('create')).toBeVisible();
    const made = await page.request.post('/api/tables', {
      data: { game, options, rated: false, seats: Array.from({ length: seats }, () => ({ kind: 'bot', bot: 'random' })) },
    });
    expect(made.ok()).toBe(true);
    const id = ((await made.json()) as { id: string }).id;
    expect((await page.request.post(`/api/tables/${id}/start`)).ok()).toBe(true);
    await expect.poll(async () => ((await (await page.request.get(`/api/tables/${id}`)).json()) as { status: string }).status,
      { timeout: 60_000 }).toBe('finished');

    await page.goto(`/tables/${id}/replay`);
    const replay = page.getByTestId('replay');
    await expect(replay).toHaveAttribute('data-perspective', 'spectator');
    await expect(page.getByTestId('replay-as').locator('option')).toHaveCount(1); // no seat of mine
    await expect(page.getByTestId('replay-as')).toHaveValue('spectator');
    const total = Number(await page.locator('.replay input[type=range]').getAttribute('max'));
    expect(total).toBeGreaterThan(4);
    await expect(page.getByTestId('end')).toBeVisible();
    await expect(page.getByTestId('end-friendly')).toBeVisible();
    await page.keyboard.press('Home');
    await expect(replay).toHaveAttribute('data-at', '0');
    await expect(page.getByTestId(game)).toBeVisible();
    await expect(page.getByTestId('end')).toHaveCount(0);
    for (let i = 1; i <= 4; i++) {
      await page.keyboard.press('ArrowRight');
      await expect(replay).toHaveAttribute('data-at', String(i));
    }
    const half = Math.floor(total / 2);
    await page.locator('.replay input[type=range]').fill(String(half));
    await expect(replay).toHaveAttribute('data-at', String(half));
    await expect(page.getByTestId(game)).toBeVisible();
    await expect(page.getByTestId(game)).toHaveAttribute('data-' + (game === 'fist' ? 'legal' : 'decision'), 'none');
    await shoot(page, `replay-${game}-spectator.png`);
    expect(errors).toEqual([]);
    expect(answers.length).toBeGreaterThan(5);
    for (const r of answers) {
      expect(r.perspective).toBeNull();
      expect((r.view as { private: unknown }).private).toBeNull();
      for (const o of objects({ steps: r.steps })) {
        if ('code' in o && 'to' in o) expect(o.to ?? null).toBeNull();
        expect('action' in o && 'events' in o).toBe(false); // no seat's own moves
      }
    }
    await ctx.close();
  });
}

test('the rules of each game with every card, in English and in German, on a phone', async ({ browser }) => {
  const de = cat('de');
  const ctx = await browser.newContext({ baseURL: url(), locale: 'de-DE', viewport: { width: 360, height: 740 } });
  await noConfirm(ctx); // each move sent on its first click (e2e/settings.ts)
  const page = await ctx.newPage();
  await page.goto('/rules/fist');
  const rules = page.getByTestId('rules');
  await expect(rules.locator('table caption')).toHaveText(['Figuren']);
  await expect(rules.locator('tbody tr')).toHaveCount(28); // 8 standard and 20 kinds of special (25 cards)
  await shoot(page, 'rules-fist-de-phone.png');
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
  await noConfirm(ctx); // each move sent on its first click (e2e/settings.ts)
  const page = await ctx.newPage();
  await page.goto('/');
  await page.locator('#game').selectOption('master');
  await page.locator('#seat-1').selectOption('bot');
  await page.locator('#bot-1').selectOption('random');
  await page.getByRole('combobox', { name: en['web.clock.title']! }).selectOption('realtime');
  await page.getByLabel(en['web.clock.minutes']!).fill('2');
  await page.getByTestId('create').click();
  await expect(page.getByTestId('start')).toBeEnabled({ timeout: 10_000 });
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
  await expect(mine.locator('.sr-only')).toHaveText(/left, running/);
  await shoot(page, 'master-clock.png');
  await ctx.close();
});

test('a Dragon Master match against a bot, round after round to two dragons (M5)', async ({ browser }) => {
  const ctx = await browser.newContext({ baseURL: url(), locale: 'en-US' });
  await noConfirm(ctx); // each move sent on its first click (e2e/settings.ts)
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
  // a friendly table: said so, and no rating moved
  await expect(page.getByTestId('end-friendly')).toBeVisible();
  await expect(page.getByTestId('rating-change')).toHaveCount(0);
  await shoot(page, 'master-match-end.png');
  await ctx.close();
});
