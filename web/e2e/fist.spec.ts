// A whole Fist of Dragonstones game through the UI: one human (desktop, English) against two
// bots, one turn (max_turns 1), with a spectator; the human hands in sealed bids with the
// bid builder (the first one by keyboard only), Silver in tie-breaks, and takes every power
// decision by its button. Then 4 people by invite links (one a German phone that reloads in
// the middle). Every WebSocket frame each browser received is scanned for the others'
// secrets (their coins and their bids before the reveal) with the finished table's record as
// the oracle. Screenshots of the game screen go to test-results/screenshots/.
import { expect, test, type Browser } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { decisionsSeen, moveIfAsked, scanFist } from './fistplay';
import { recordFrames } from './frames';
import { shoot } from './shoot';
import { noConfirm } from './settings';

const url = (): string =>
  process.env.DRAGONLAIR_E2E_URL ?? (JSON.parse(readFileSync(resolve(tmpdir(), 'dragonlair-e2e-server.json'), 'utf-8')) as { url: string }).url;

async function open(browser: Browser, opts: { locale: string; viewport?: { width: number; height: number } }) {
  const ctx = await browser.newContext({ baseURL: url(), locale: opts.locale, viewport: opts.viewport ?? { width: 1200, height: 900 } });
  await noConfirm(ctx); // each move sent on its first click (e2e/settings.ts)
  const page = await ctx.newPage();
  const frames = recordFrames(page);
  return { ctx, page, frames };
}

test('a whole Fist of Dragonstones game against bots, with a spectator; no leaked coins or bids', async ({ browser }) => {
  test.setTimeout(180_000);
  let seed = 7;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const a = await open(browser, { locale: 'en-US', viewport: { width: 1280, height: 900 } });
  const s = await open(browser, { locale: 'en-US', viewport: { width: 360, height: 740 } });

  await a.page.goto('/');
  await a.page.locator('#game').selectOption('fist');
  await a.page.locator('#opt-fist-players').fill('3');
  await a.page.locator('#opt-fist-max_turns').fill('1');
  for (const i of [1, 2]) {
    await a.page.locator(`#seat-${i}`).selectOption('bot');
    await a.page.locator(`#bot-${i}`).selectOption('heuristic');
  }
  await a.page.getByTestId('create').click();
  await expect(a.page.getByTestId('start')).toBeEnabled({ timeout: 10_000 });
  const tableId = /\/tables\/([^#/?]+)/.exec(a.page.url())![1]!;
  await a.page.getByTestId('start').click();
  // the spectator has animations off (Settings): nothing on its screen moves
  await s.ctx.addInitScript(() => {
    const key = 'dragonlair.settings';
    localStorage.setItem(key, JSON.stringify({ ...(JSON.parse(localStorage.getItem(key) ?? '{}') as object), animations: false }));
  });
  await s.page.goto(`/tables/${tableId}`);
  await expect(a.page.getByTestId('fist')).toBeVisible();
  await expect(s.page.getByTestId('fist')).toBeVisible();
  await expect(s.page.getByTestId('screen')).toHaveCount(0);

  // the table: the card up for auction drawn with its emblem, every seat with its stones
  await expect(a.page.getByTestId('card')).toHaveAttribute('data-kind', /^[a-z]+$/);
  await expect(a.page.locator('[data-testid^="seat-row-"]')).toHaveCount(3);
  await expect(s.page.locator('[data-testid^="seat-row-"]')).toHaveCount(3);
  await shoot(a.page, `fist-bid-desktop.png`);

  const kinds = new Map<string, number>();
  let shot = false;
  let decisionShot = false;
  for (let i = 0; i < 400 && (await a.page.getByTestId('end').count()) === 0; i++) {
    if (!decisionShot && (await a.page.getByTestId('fist').getAttribute('data-legal')) === 'decision') {
      decisionShot = true;
      await expect(a.page.getByTestId('decision')).toBeVisible();
      await shoot(a.page, `fist-decision-desktop.png`);
    }
    const k = await moveIfAsked(a.page, rnd, kinds.size === 0);
    if (k) kinds.set(k, (kinds.get(k) ?? 0) + 1);
    else await a.page.waitForTimeout(50);
    if (!shot && (await a.page.getByTestId('reveal').count()) > 0) {
      shot = true;
      await expect(a.page.getByTestId('card')).toBeVisible();
      // the fists open together: one open hand per seat, told in words (not "Black Magic coin: no")
      const fists = a.page.getByTestId('reveal').locator('li.fist');
      expect(await fists.count()).toBeGreaterThan(1);
      for (const text of await a.page.getByTestId('reveal').locator('.sr-only').allInnerTexts()) expect(text).not.toMatch(/: (no|yes)\b|\{|fist\./);
      // opened while watched: animated (CSS, under 600 ms) until a key or a click finishes it;
      // never with the animations setting off
      await expect(a.page.getByTestId('reveal')).toHaveClass(/\banim\b/);
      await a.page.keyboard.press('Shift');
      await expect(a.page.getByTestId('reveal')).not.toHaveClass(/\banim\b/);
      await expect(s.page.getByTestId('reveal')).toBeVisible();
      await expect(s.page.getByTestId('reveal')).not.toHaveClass(/\banim\b/);
      await shoot(a.page, `fist-reveal-desktop.png`);
      await shoot(s.page, `fist-reveal-spectator-phone.png`);
    }
  }
  console.log(`fist moves through the UI: ${JSON.stringify(Object.fromEntries(kinds))}`);
  expect(kinds.get('bid') ?? 0).toBeGreaterThan(3);
  for (const p of [a.page, s.page]) await expect(p.getByTestId('end')).toBeVisible({ timeout: 20_000 });
  // the placings drawn: every seat with its place, stones and points
  for (const p of [a.page, s.page]) await expect(p.getByTestId('fist-end').locator('[data-testid^="place-"]')).toHaveCount(3);
  await shoot(a.page, `fist-end-p0.png`);
  await shoot(s.page, `fist-end-spectator-phone.png`);
  expect(await s.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  const record = (await (await a.page.request.get(`/api/tables/${tableId}/record`)).json()) as { actions: string[] };
  scanFist(record, 'p0', a.frames, 0);
  scanFist(record, 'spectator', s.frames, null);
  await Promise.all([a.ctx.close(), s.ctx.close()]);
});

test('a whole Fist of Dragonstones game of 4 people by invite links, a German phone, a reload, a spectator', async ({ browser }) => {
  // the release tier (scripts/test.sh --long) only: a minute and a half of CI's twenty; invite
  // links, a reload and a German phone are also met in master.spec.ts, and sealed bids handed
  // in by people in any order in tests/server/test_bots_and_restart.py
  test.skip(process.env.DRAGONLAIR_TEST_TIER === 'ci', 'the release tier only (scripts/test.sh --long)');
  test.setTimeout(240_000);
  let seed = 11;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const players = [
    await open(browser, { locale: 'en-US' }),
    await open(browser, { locale: 'de-DE', viewport: { width: 360, height: 740 } }),
    await open(browser, { locale: 'en-US' }),
    await open(browser, { locale: 'en-US' }),
  ];
  const s = await open(browser, { locale: 'en-US' });
  const a = players[0]!;
  await a.page.goto('/');
  await a.page.locator('#game').selectOption('fist');
  await a.page.locator('#opt-fist-max_turns').fill('1');
  for (const i of [1, 2, 3]) await a.page.locator(`#seat-${i}`).selectOption('invite');
  await a.page.getByTestId('create').click();
  for (const i of [1, 2, 3]) {
    const invite = await a.page.getByTestId(`invite-${i}`).inputValue();
    await players[i]!.page.goto(invite);
    await expect(a.page.getByTestId(`seat-${i}`)).not.toContainText('Invite', { timeout: 10_000 });
  }
  const tableId = /\/tables\/([^#/?]+)/.exec(a.page.url())![1]!;
  await expect(a.page.getByTestId('start')).toBeEnabled();
  await a.page.getByTestId('start').click();
  await s.page.goto(`/tables/${tableId}`);
  for (const p of [...players, s]) await expect(p.page.getByTestId('fist')).toBeVisible();
  await expect(players[1]!.page.getByTestId('screen')).toContainText(/Feengold|Fairy/);

  const kinds = new Map<string, number>();
  let reloaded = false;
  for (let i = 0; i < 600 && (await a.page.getByTestId('end').count()) === 0; i++) {
    let moved = false;
    for (const p of players) {
      const k = await moveIfAsked(p.page, rnd);
      if (k) {
        moved = true;
        kinds.set(k, (kinds.get(k) ?? 0) + 1);
      }
    }
    if (!moved) await a.page.waitForTimeout(50);
    if (!reloaded && (kinds.get('bid') ?? 0) >= 10) {
      reloaded = true;
      await shoot(players[1]!.page, `fist4-p1-phone-de.png`);
      await shoot(s.page, `fist4-spectator.png`);
      const before = await a.page.getByTestId('fist').getAttribute('data-history');
      await players[2]!.page.reload();
      await expect(players[2]!.page.getByTestId('fist')).toBeVisible();
      // resumes where the game stands (nobody else moved meanwhile)
      await expect(players[2]!.page.getByTestId('fist')).toHaveAttribute('data-history', before!);
    }
  }
  console.log(`fist (4 people) moves through the UI: ${JSON.stringify(Object.fromEntries(kinds))}`);
  expect(reloaded).toBe(true);
  for (const p of [...players, s]) await expect(p.page.getByTestId('end')).toBeVisible({ timeout: 20_000 });
  await shoot(players[1]!.page, `fist4-end-p1-phone-de.png`);
  expect(await players[1]!.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  const record = (await (await a.page.request.get(`/api/tables/${tableId}/record`)).json()) as { actions: string[] };
  players.forEach((p, seat) => scanFist(record, `p${seat}`, p.frames, seat));
  scanFist(record, 'spectator', s.frames, null);
  await Promise.all([...players, s].map((p) => p.ctx.close()));
});

test.afterAll(() => {
  console.log(`power decisions met on screen: ${[...decisionsSeen].sort().join(', ') || 'none'}`);
});
