// A whole Dragon Farkle game through the UI: one human (a 360 × 740 phone, German) against a
// bot, six turns in all (max_turns 6), with a spectator; the human attacks in a Skirmish once,
// sets aside scoring dice by their buttons, rolls on or banks. Every WebSocket frame each
// browser received is scanned for the other seat's hidden magic items (the spectator's views
// name whom each draw was for). Screenshots of the
// game screen go to test-results/screenshots/.
import { expect, test, type Browser, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { objects, recordFrames } from './frames';
import { shoot } from './shoot';
import { noConfirm } from './settings';

const here = dirname(fileURLToPath(import.meta.url));
const url = (): string =>
  process.env.DRAGONLAIR_E2E_URL ?? (JSON.parse(readFileSync(resolve(tmpdir(), 'dragonlair-e2e-server.json'), 'utf-8')) as { url: string }).url;
const de = JSON.parse(readFileSync(resolve(here, '../public/i18n/de.json'), 'utf-8')) as { messages: Record<string, string> };

async function open(browser: Browser, opts: { locale: string; viewport?: { width: number; height: number } }) {
  const ctx = await browser.newContext({ baseURL: url(), locale: opts.locale, viewport: opts.viewport ?? { width: 1280, height: 900 } });
  await noConfirm(ctx); // each move sent on its first click (e2e/settings.ts)
  const page = await ctx.newPage();
  const frames = recordFrames(page);
  return { ctx, page, frames };
}

/** One move if this page is to move: a Skirmish when offered (once), else a keep, else roll
 * while little is pending, else bank / stop / the first action offered. */
async function moveIfAsked(page: Page, state: { skirmished: boolean }): Promise<string | null> {
  const root = page.getByTestId('farkle');
  if ((await root.getAttribute('data-my-turn')) !== 'true') return null;
  const history = await root.getAttribute('data-history');
  // issue 25: at the start of a turn no dice lie on the table (the last player's roll was theirs)
  if ((await root.getAttribute('data-decision')) === 'action') await expect(page.getByTestId('dice')).toHaveCount(0);
  const actions = await page.getByTestId('action').evaluateAll((bs) => bs.map((b) => b.getAttribute('data-action') ?? ''));
  const keeps = page.getByTestId('keep');
  // every button is labelled from the catalogues, not a raw code or action text
  for (const text of [...(await keeps.allInnerTexts()), ...(await page.getByTestId('action').allInnerTexts())]) expect(text).not.toMatch(/^(web|farkle)\.[a-z_.]+|^keep /);
  let chosen: string;
  const skirmish = actions.find((a) => a.startsWith('skirmish '));
  if (skirmish && !state.skirmished) {
    state.skirmished = true;
    chosen = skirmish;
  } else if ((await keeps.count()) > 0) {
    chosen = (await keeps.first().getAttribute('data-action'))!;
  } else if (actions.includes('roll') && (await page.getByTestId('pending').innerText()).match(/\d+/)?.[0] !== undefined && Number((await page.getByTestId('pending').innerText()).match(/\d+/)![0]) < 400) {
    chosen = 'roll';
  } else {
    chosen = actions.find((a) => a === 'bank' || a === 'stop') ?? actions.find((a) => a === 'recruit') ?? actions[0]!;
  }
  await page.locator(`[data-action="${chosen}"]`).first().click();
  await expect.poll(async () => (await root.getAttribute('data-history')) !== history || (await page.getByTestId('end').count()) > 0, { timeout: 20_000 }).toBe(true);
  return chosen;
}

/** The spectator's views say whom each item draw was for (`chance: item for pN` at that
 * index of the record). */
function itemOwners(spectator: unknown[]): Map<number, number> {
  const owner = new Map<number, number>();
  for (const o of objects(spectator)) {
    if (!('private' in o && 'public' in o)) continue;
    (o.public as { history: string[] }).history.forEach((h, i) => {
      const m = /^chance: item for p(\d+)$/.exec(h);
      if (m) owner.set(i, Number(m[1]));
    });
  }
  return owner;
}

/** A seat sees a card id only in its own draws, choices and private events. */
function scanFarkle(owner: Map<number, number>, who: string, frames: unknown[], seat: number | null): void {
  expect(frames.length, who).toBeGreaterThan(3);
  for (const o of objects(frames)) {
    if (typeof o.to === 'number') expect(o.to, `${who} got another seat's private event`).toBe(seat);
    if (typeof o.code === 'string' && o.code.endsWith('_own')) expect((o.params as { seat: number }).seat, who).toBe(seat);
    if ('private' in o && 'public' in o) {
      expect(o.seat, who).toBe(seat);
      if (seat === null) expect(o.private, who).toBeNull();
      if ((o as { result?: unknown }).result) continue; // the finished table's record is public
      (o.public as { history: string[] }).history.forEach((h, i) => {
        if (/^chance: item /.test(h) && !/^chance: item for p\d+$/.test(h)) expect(owner.get(i), `${who} saw another seat's item draw: ${h}`).toBe(seat);
        const m = /^p(\d+): (discard|keep-item) (.*)$/.exec(h);
        if (m && Number(m[1]) !== seat) expect(m[3], who).toBe('(hidden)');
      });
    }
  }
}

test('a whole Dragon Farkle game on a German phone against a bot, with a Skirmish; no leaked items', async ({ browser }) => {
  test.setTimeout(180_000);
  const a = await open(browser, { locale: 'de-DE', viewport: { width: 360, height: 740 } });
  const s = await open(browser, { locale: 'en-US' });

  await a.page.goto('/');
  await a.page.locator('#game').selectOption('farkle');
  await a.page.locator('#opt-farkle-max_turns').fill('6');
  await a.page.locator('#seat-1').selectOption('bot');
  await a.page.locator('#bot-1').selectOption('cautious');
  await a.page.getByTestId('create').click();
  await expect(a.page.getByTestId('start')).toBeEnabled({ timeout: 10_000 });
  const tableId = /\/tables\/([^#/?]+)/.exec(a.page.url())![1]!;
  await a.page.getByTestId('start').click();
  await s.page.goto(`/tables/${tableId}`);
  await expect(a.page.getByTestId('farkle')).toBeVisible();
  await expect(s.page.getByTestId('farkle')).toBeVisible();
  await expect(a.page.getByRole('heading', { name: de.messages['web.farkle.dice']! })).toBeVisible();

  const state = { skirmished: false };
  const moves: string[] = [];
  let shot = false;
  let sawSkirmish = false;
  for (let i = 0; i < 400 && (await a.page.getByTestId('end').count()) === 0; i++) {
    const m = await moveIfAsked(a.page, state);
    if (m) moves.push(m);
    else await a.page.waitForTimeout(50);
    if (!sawSkirmish && (await a.page.getByTestId('skirmish').count()) > 0) {
      sawSkirmish = true;
      await shoot(a.page, `farkle-skirmish-p0-phone-de.png`);
    }
    if (!shot && (await a.page.getByTestId('keep').count()) > 0) {
      shot = true;
      await a.page.waitForTimeout(600); // the dice's roll animation
      await shoot(a.page, `farkle-p0-phone-de.png`);
      await shoot(s.page, `farkle-spectator.png`);
    }
  }
  console.log(`farkle moves through the UI: ${moves.join(', ')}`);
  expect(moves.some((m) => m.startsWith('keep '))).toBe(true);
  for (const p of [a.page, s.page]) await expect(p.getByTestId('end')).toBeVisible({ timeout: 20_000 });
  await expect(a.page.getByTestId('farkle-end')).toContainText(de.messages['farkle.screen.end.title']!);
  await expect(a.page.getByTestId('end-army-0')).toContainText('Soldat');
  await shoot(a.page, `farkle-end-p0-phone-de.png`);
  await shoot(s.page, `farkle-end-spectator.png`);
  expect(await a.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  scanFarkle(itemOwners(s.frames), 'p0', a.frames, 0);
  scanFarkle(itemOwners(s.frames), 'spectator', s.frames, null);
  await Promise.all([a.ctx.close(), s.ctx.close()]);
});

test('a whole Dragon Farkle game of 2 people by invite link with a Skirmish, and a spectator', async ({ browser }) => {
  test.setTimeout(180_000);
  const players = [await open(browser, { locale: 'en-US' }), await open(browser, { locale: 'en-US' })];
  const s = await open(browser, { locale: 'en-US', viewport: { width: 360, height: 740 } });
  const a = players[0]!;
  await a.page.goto('/');
  await a.page.locator('#game').selectOption('farkle');
  await a.page.locator('#opt-farkle-max_turns').fill('4');
  await a.page.locator('#seat-1').selectOption('invite');
  await a.page.getByTestId('create').click();
  const invite = await a.page.getByTestId('invite-1').inputValue();
  await players[1]!.page.goto(invite);
  await expect(a.page.getByTestId('seat-1')).not.toContainText('Invite', { timeout: 10_000 });
  const tableId = /\/tables\/([^#/?]+)/.exec(a.page.url())![1]!;
  await a.page.getByTestId('start').click();
  await s.page.goto(`/tables/${tableId}`);
  for (const p of [...players, s]) await expect(p.page.getByTestId('farkle')).toBeVisible();

  const states = [{ skirmished: false }, { skirmished: false }];
  const moves: string[] = [];
  let defended = false;
  let decisionShot = false;
  for (let i = 0; i < 600 && (await a.page.getByTestId('end').count()) === 0; i++) {
    let moved = false;
    for (const [k, p] of players.entries()) {
      const inSkirmish = (await p.page.getByTestId('skirmish').count()) > 0;
      // a decision about a roll at 1280 px: the dice on the table, the choices under them
      if (!decisionShot && (await p.page.getByTestId('keep').count()) > 0) {
        decisionShot = true;
        await expect(p.page.getByTestId('dice').locator('.die:not(.event)').first()).toBeVisible();
        await p.page.waitForTimeout(600); // the dice's tumble
        await shoot(p.page, `farkle-decision-desktop.png`);
      }
      const m = await moveIfAsked(p.page, states[k]!);
      if (m) {
        moved = true;
        moves.push(`p${k}: ${m}`);
        // the defender rolls its defence through its own screen (D5.2)
        if (inSkirmish && states[k]!.skirmished === false && !defended) {
          defended = true;
          await shoot(p.page, `farkle-skirmish-defender.png`);
          await shoot(s.page, `farkle-skirmish-spectator-phone.png`);
        }
      }
    }
    if (!moved) await a.page.waitForTimeout(50);
  }
  console.log(`farkle (2 people) moves through the UI: ${moves.join(', ')}`);
  expect(moves.some((m) => / skirmish p\d/.test(m))).toBe(true);
  expect(defended).toBe(true);
  for (const p of [...players, s]) await expect(p.page.getByTestId('end')).toBeVisible({ timeout: 20_000 });
  // the end drawn: how the battle ended, every army in soldiers, the winners marked
  for (const p of [...players, s]) {
    await expect(p.page.getByTestId('farkle-end')).toBeVisible();
    await expect(p.page.getByTestId('farkle-end-how')).not.toHaveText('');
    for (const seat of [0, 1]) await expect(p.page.getByTestId(`end-army-${seat}`)).toContainText('soldier');
  }
  await shoot(a.page, `farkle-end-desktop.png`);
  await shoot(s.page, `farkle-end-spectator-phone.png`);
  const owners = itemOwners(s.frames);
  players.forEach((p, seat) => scanFarkle(owners, `p${seat}`, p.frames, seat));
  scanFarkle(owners, 'spectator', s.frames, null);
  await Promise.all([...players, s].map((p) => p.ctx.close()));
});

// Issue 25: the table's moves (the roll's tumble, dice set aside) each end within 600 ms, a
// key finishes every one at once, and with the setting "animations" off none is drawn.
for (const animations of [true, false]) {
  test(`Farkle's moves ${animations ? 'end within 600 ms and a key finishes them' : 'are not drawn with the setting off'}`, async ({ browser }) => {
    const { ctx, page } = await open(browser, { locale: 'en-US' });
    await ctx.addInitScript((on) => {
      const key = 'dragonlair.settings';
      const v = JSON.parse(localStorage.getItem(key) ?? '{}') as Record<string, unknown>;
      localStorage.setItem(key, JSON.stringify({ ...v, animations: on }));
    }, animations);
    await page.goto('/');
    await page.getByTestId('quick-farkle').click();
    const root = page.getByTestId('farkle');
    await expect(root).toHaveAttribute('data-my-turn', 'true', { timeout: 20_000 });
    await expect(root).toHaveAttribute('data-decision', 'action');
    // every move that starts on the table: how long it runs, and what is still running right
    // after a key is pressed at its start
    const watched = page.evaluate(() => new Promise<{ moves: number[]; runningAfterKey: number }>((done) => {
      const moves: number[] = [];
      let runningAfterKey = -1;
      const seconds = (s: string) => Math.max(...s.split(',').map((x) => parseFloat(x) * (x.trim().endsWith('ms') ? 0.001 : 1)));
      document.addEventListener('animationstart', (e) => {
        const el = e.target as Element;
        const table = el.closest('[data-testid=farkle]');
        if (!table) return;
        const cs = getComputedStyle(el);
        moves.push(seconds(cs.animationDuration) + seconds(cs.animationDelay));
        if (runningAfterKey < 0) {
          window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Shift' }));
          runningAfterKey = table.getAnimations({ subtree: true }).filter((a) => a.playState === 'running').length;
        }
      }, true);
      setTimeout(() => done({ moves, runningAfterKey }), 4000);
    }));
    await page.locator('[data-action="recruit"]').click();
    await expect(page.getByTestId('dice').locator('.die:not(.event)').first()).toBeVisible({ timeout: 20_000 });
    const { moves, runningAfterKey } = await watched;
    if (animations) {
      expect(moves.length).toBeGreaterThan(0);
      for (const s of moves) expect(s).toBeLessThan(0.6);
      expect(runningAfterKey).toBe(0);
    } else {
      expect(moves).toEqual([]);
    }
    await ctx.close();
  });
}
