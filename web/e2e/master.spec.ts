// A whole Dragon Master game through the UI: the creator (desktop, English) invites a second
// player (a 360 × 740 phone, German) by link, a spectator watches; the phone reloads in the
// middle and resumes; every WebSocket frame each browser received is scanned for the other
// seat's hand, with the finished table's record as the oracle. Screenshots of the game
// screen go to test-results/screenshots/.
import { expect, test, type Browser, type Page } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { objects, recordFrames } from './frames';
import { shoot, shots } from './shoot';
import { noConfirm } from './settings';

const here = dirname(fileURLToPath(import.meta.url));
const url = (): string =>
  process.env.DRAGONLAIR_E2E_URL ?? (JSON.parse(readFileSync(resolve(tmpdir(), 'dragonlair-e2e-server.json'), 'utf-8')) as { url: string }).url;
const de = JSON.parse(readFileSync(resolve(here, '../public/i18n/de.json'), 'utf-8')) as { messages: Record<string, string> };

async function open(browser: Browser, opts: { locale: string; viewport?: { width: number; height: number } }) {
  const ctx = await browser.newContext({ baseURL: url(), locale: opts.locale, viewport: opts.viewport ?? { width: 1200, height: 900 } });
  await noConfirm(ctx); // each move sent on its first click (e2e/settings.ts)
  // every frame sent and received, with the wall clock (shared by the browser's contexts),
  // for the move latency from one browser to the others
  await ctx.addInitScript(() => {
    const log: { dir: string; t: number; d: string }[] = [];
    (window as unknown as { __dlFrames: typeof log }).__dlFrames = log;
    const Orig = window.WebSocket;
    const send = Orig.prototype.send;
    Orig.prototype.send = function (this: WebSocket, d: string) {
      log.push({ dir: 'out', t: Date.now(), d: String(d) });
      send.call(this, d);
    };
    window.WebSocket = class extends Orig {
      constructor(u: string | URL, p?: string | string[]) {
        super(u, p);
        this.addEventListener('message', (e: MessageEvent) => log.push({ dir: 'in', t: Date.now(), d: String(e.data) }));
      }
    };
  });
  const page = await ctx.newPage();
  const frames = recordFrames(page);
  return { ctx, page, frames };
}

/** Plays one card if this page is to move: the first playable card on the first legal cell. */
async function playIfMyTurn(page: Page): Promise<boolean> {
  const master = page.getByTestId('master');
  if ((await master.getAttribute('data-my-turn')) !== 'true') return false;
  const placed = Number(await master.getAttribute('data-placed'));
  const round = await master.getAttribute('data-round');
  await page.locator('.hand button.card:not([disabled])').first().click();
  await page.locator('button.cell.legal:not([disabled])').first().click();
  // the move shows once the server's update arrives (no optimistic updates)
  await expect.poll(async () => (await master.getAttribute('data-placed')) !== String(placed) || (await master.getAttribute('data-round')) !== round || (await page.getByTestId('end').count()) > 0).toBe(true);
  return true;
}

test('a whole Dragon Master game: invite link, spectator, reload, German phone, no leaked hand', async ({ browser }) => {
  const a = await open(browser, { locale: 'en-US' });
  const b = await open(browser, { locale: 'de-DE', viewport: { width: 360, height: 740 } });
  const s = await open(browser, { locale: 'en-US' });

  await a.page.goto('/');
  await a.page.locator('#game').selectOption('master');
  await a.page.locator('#seat-1').selectOption('invite');
  await a.page.getByTestId('create').click();
  const invite = await a.page.getByTestId('invite-1').inputValue();
  expect(invite).toContain('#invite=');
  const tableId = /\/tables\/([^#/]+)/.exec(invite)![1]!;

  await b.page.goto(invite);
  await expect(a.page.getByTestId('seat-1')).not.toContainText('Invite', { timeout: 10_000 });
  await expect(a.page.getByTestId('start')).toBeEnabled();
  await a.page.getByTestId('start').click();
  await s.page.goto(`/tables/${tableId}`);
  await expect(s.page.getByTestId('master')).toBeVisible();
  await expect(b.page.getByTestId('master')).toBeVisible();
  // the second player sees the grid turned a quarter turn, in German
  await expect(b.page.getByTestId('master')).toHaveAttribute('data-rotated', 'true');
  await expect(a.page.getByTestId('master')).toHaveAttribute('data-rotated', 'false');
  await expect(b.page.getByRole('heading', { name: de.messages['web.log.title']! })).toBeVisible();

  let moves = 0;
  let reloaded = false;
  const decided = new Set<string>();
  for (let i = 0; i < 200 && (await a.page.getByTestId('end').count()) === 0; i++) {
    const played = (await playIfMyTurn(a.page)) || (await playIfMyTurn(b.page));
    if (played) moves += 1;
    else await a.page.waitForTimeout(50);
    if (moves >= 4 && moves <= 5 && decided.size < 2) {
      // a decision of each: a card chosen from the drawn hand, the legal cells ready for it
      for (const [p, name, me, word] of [[a.page, 'master-decision-desktop.png', 0, /Dragon/], [b.page, 'master-decision-phone-de.png', 1, /Drache/]] as const) {
        if (decided.has(name) || (await p.getByTestId('master').getAttribute('data-my-turn')) !== 'true') continue;
        decided.add(name);
        // whose turn it is, at the seats of every page
        for (const q of [a.page, b.page, s.page]) {
          await expect(q.getByTestId(`master-seat-${me}`)).toHaveAttribute('data-turn', 'true');
          await expect(q.getByTestId(`master-seat-${1 - me}`)).toHaveAttribute('data-turn', 'false');
        }
        const chosen = p.locator('.hand button.card:not([disabled])').first();
        await chosen.click();
        await expect(chosen).toHaveAttribute('aria-checked', 'true');
        // the card shows its value and its name in the reader's language
        await expect(chosen.locator('.name')).toHaveText(word);
        await expect(p.locator('button.cell.legal.ready').first()).toBeEnabled();
        await shoot(p, name);
      }
    }
    if (moves === 6 && !reloaded) {
      reloaded = true;
      await shoot(a.page, `master-p0-desktop.png`);
      await shoot(b.page, `master-p1-phone-de.png`);
      await shoot(s.page, `master-spectator.png`);
      await b.page.reload();
      await expect(b.page.getByTestId('master')).toHaveAttribute('data-placed', '6');
    }
  }
  expect(moves).toBe(16);
  // the card placed last is marked, on every page alike
  const lastCells = await Promise.all([a.page, b.page, s.page].map((p) => p.locator('.placed.last').getAttribute('data-cell')));
  expect(new Set(lastCells).size).toBe(1);
  // the edges name the cells: letters above for the first player, row numbers above for the second
  await expect(a.page.locator('.grow.edge .coord').first()).toHaveText(/^[a-g]$/);
  await expect(b.page.locator('.grow.edge .coord').first()).toHaveText(/^[1-7]$/);
  for (const p of [a.page, b.page, s.page]) await expect(p.getByTestId('end')).toBeVisible();
  await expect(b.page.getByTestId('end')).toContainText(de.messages['web.end.title']!);
  await expect(a.page.getByTestId('round-1')).toBeVisible();
  await shoot(a.page, `master-end-p0.png`);
  await shoot(b.page, `master-end-p1-phone-de.png`);
  await shoot(s.page, `master-end-spectator.png`);
  // no horizontal scrolling on the phone
  expect(await b.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  // the oracle: the finished table's record (public after the end) holds both hands
  const record = (await (await a.page.request.get(`/api/tables/${tableId}/record`)).json()) as { actions: string[] };
  const deals = record.actions.filter((x) => x.startsWith('chance: deal ')).map((x) => x.slice('chance: deal '.length));
  const hands = [deals.slice(0, 8), deals.slice(8, 16)];
  const count = (cards: string[]) => Object.fromEntries(['egg', 'emerald', 'sapphire', 'ruby'].map((c) => [c, cards.filter((x) => x === c).length]));
  for (const [who, frames, seat] of [['p0', a.frames, 0], ['p1', b.frames, 1], ['spectator', s.frames, null]] as const) {
    expect(frames.length, who).toBeGreaterThan(5);
    for (const o of objects(frames)) {
      if (o.code === 'master.deal.hand') {
        expect(seat, `${who} got a hand event`).not.toBeNull();
        expect((o.params as { seat: number }).seat, who).toBe(seat);
      }
      if (typeof o.to === 'number') expect(o.to, `${who} got another seat's private event`).toBe(seat);
      if ('private' in o && 'public' in o) {
        if (seat === null) expect(o.private, who).toBeNull();
        else if (o.private) {
          const hand = (o.private as { hand: Record<string, number> }).hand;
          const dealt = count(hands[seat]!);
          for (const c of Object.keys(hand)) expect(hand[c]!, `${who} ${c}`).toBeLessThanOrEqual(dealt[c]!);
        }
      }
    }
  }

  // move latency: an act sent by one browser -> the update with its seq in each other one
  type Frame = { dir: string; t: number; d: string };
  const logs = await Promise.all([a.page, b.page, s.page].map((p) => p.evaluate(() => (window as unknown as { __dlFrames: Frame[] }).__dlFrames)));
  const updates = logs.map((log) => {
    const m = new Map<number, number>();
    for (const f of log) {
      if (f.dir !== 'in') continue;
      const msg = JSON.parse(f.d) as { type: string; seq?: number };
      if (msg.type === 'update' && msg.seq !== undefined && !m.has(msg.seq)) m.set(msg.seq, f.t);
    }
    return m;
  });
  const latencies: number[] = [];
  for (const [i, log] of logs.entries()) {
    const acks = new Map<string, number>();
    for (const f of log) {
      const msg = JSON.parse(f.d) as { type: string; key?: string; seq?: number };
      if (f.dir === 'in' && msg.type === 'ack') acks.set(msg.key!, msg.seq!);
    }
    for (const f of log) {
      const msg = JSON.parse(f.d) as { type: string; key?: string };
      if (f.dir !== 'out' || msg.type !== 'act') continue;
      const seq = acks.get(msg.key!);
      if (seq === undefined) continue;
      for (const [j, other] of updates.entries()) {
        const at = other.get(seq);
        if (j !== i && at !== undefined) latencies.push(at - f.t);
      }
    }
  }
  latencies.sort((x, y) => x - y);
  const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!;
  const summary = { deliveries: latencies.length, p50_ms: q(0.5), p95_ms: q(0.95), max_ms: latencies.at(-1) };
  console.log(`move latency, act in one browser -> update in the others: ${JSON.stringify(summary)}`);
  writeFileSync(resolve(here, '../test-results/latency-master.json'), JSON.stringify(summary, null, 2));
  // 16 moves, two other browsers each (the phone's log restarts with its reload)
  expect(latencies.length).toBeGreaterThanOrEqual(20);
  await Promise.all([a.ctx.close(), b.ctx.close(), s.ctx.close()]);
});

test('a Dragon Master match on a German phone: the dragons, each round explained, the next round begun (M4, M5)', async ({ browser }) => {
  const { ctx, page } = await open(browser, { locale: 'de-DE', viewport: { width: 360, height: 740 } });
  await page.goto('/');
  await page.locator('#game').selectOption('master');
  await page.locator('#opt-master-match').check();
  await page.locator('#seat-1').selectOption('bot');
  await page.locator('#bot-1').selectOption('random');
  await page.getByTestId('create').click();
  await page.getByTestId('start').click();
  const master = page.getByTestId('master');
  await expect(page.getByTestId('dragons-0')).toContainText('0');
  await expect(page.getByTestId('dragons-1')).toContainText('0');
  await expect(page.getByTestId('round-begun')).toHaveCount(0); // nothing to explain in round 1

  // play round 1 to its end: the second round begins, and the first one is explained
  for (let i = 0; i < 40 && (await master.getAttribute('data-round')) === '1'; i++) {
    if (!(await playIfMyTurn(page))) await page.waitForTimeout(50);
  }
  await expect(master).toHaveAttribute('data-round', '2');
  const begun = page.getByTestId('round-begun');
  await expect(begun).toContainText(/Runde 1: .* (gewinnt|unentschieden)/);
  await expect(begun).toContainText(/Runde 2 hat begonnen: .+ fängt an\./);
  await expect(page.getByTestId('round-1-why')).toHaveText((await begun.textContent())!.split('.')[0]!.trim() + '.');
  const decides = page.getByTestId('round-1').locator('tr.decides');
  const drawn = (await page.getByTestId('round-1-why').textContent())!.includes('unentschieden');
  await expect(decides).toHaveCount(drawn ? 0 : 1);
  if (!drawn) await expect(decides).toContainText(de.messages['web.master.decides']!);
  // one of the two took a dragon, unless the round was drawn
  const dragons = [await page.getByTestId('dragons-0').textContent(), await page.getByTestId('dragons-1').textContent()].join(' ');
  expect((dragons.match(/: 1 Drache\b/g) ?? []).length).toBe(drawn ? 0 : 1);
  expect(await page.getByTestId('dragons-0').locator('xpath=..').textContent()).toMatch(/Drachen? · \S/);
  await shoot(page, 'master-match-round2-phone-de.png');
  // the link to the round's comparison, by keyboard
  await begun.getByRole('link').focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#round-1$/);
  await expect(page.getByTestId('round-1')).toBeInViewport();

  // on to the end of the match: two dragons, every round's comparison explained
  for (let i = 0; i < 400 && (await page.getByTestId('end').count()) === 0; i++) {
    if (!(await playIfMyTurn(page))) await page.waitForTimeout(50);
  }
  await expect(page.getByTestId('end')).toBeVisible();
  const rounds = Number(await master.getAttribute('data-round'));
  await expect(page.locator('table.compare')).toHaveCount(rounds);
  for (let r = 1; r <= rounds; r++) await expect(page.getByTestId(`round-${r}-why`)).toContainText(`Runde ${r}:`);
  await expect(page.getByTestId('round-begun')).toHaveCount(0);
  await expect(master.locator('.dragons').filter({ hasText: ': 2 Drachen' })).toHaveCount(1);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await shoot(page, 'master-match-end-phone-de.png');
  await ctx.close();
});

test('a turn-based table in German: the deadline of the seat to move as a German date and time', async ({ browser }) => {
  const { ctx, page } = await open(browser, { locale: 'de-DE' });
  await page.goto('/');
  await page.locator('#game').selectOption('master');
  await page.locator('#seat-1').selectOption('bot');
  await page.locator('#bot-1').selectOption('random');
  await page.getByRole('combobox', { name: de.messages['web.clock.title']! }).selectOption('turn');
  await page.getByTestId('create').click();
  await page.getByTestId('start').click();
  const master = page.getByTestId('master');
  await expect(master).toHaveAttribute('data-my-turn', 'true', { timeout: 15_000 });
  const mine = page.getByTestId('clock-0');
  await expect(mine).toHaveClass(/running/);
  // a day to move: h:mm:ss, not low, and the deadline written the German way
  await expect(mine.locator('.time')).toHaveText(/^2[34]:\d\d:\d\d$/);
  await expect(mine).not.toHaveClass(/low/);
  await expect(mine.locator('.deadline')).toHaveText(/^Zug bis \d\d\.\d\d\.\d{4}, \d\d:\d\d$/);
  await expect(mine.locator('.sr-only')).toHaveText(/: noch 2[34]:\d\d:\d\d, läuft$/);
  await expect(page.getByTestId('clock-1').locator('.deadline')).toHaveCount(0);
  await page.screenshot({ path: resolve(shots, 'master-turn-clock-de.png') });
  await ctx.close();
});

test('a placed card slides in, under 600 ms; not with reduced motion, and a click finishes it', async ({ browser }) => {
  for (const reduced of [false, true]) {
    const ctx = await browser.newContext({ baseURL: url(), locale: 'en-US', reducedMotion: reduced ? 'reduce' : 'no-preference' });
    await noConfirm(ctx);
    const page = await ctx.newPage();
    // every card that starts to slide, with its animation as the page computed it
    await page.addInitScript(() => {
      const seen: { cell: string; name: string; ms: number }[] = [];
      (window as unknown as { __slides: typeof seen }).__slides = seen;
      new MutationObserver((records) => {
        for (const r of records) {
          const el = r.target as HTMLElement;
          if (r.attributeName !== 'class' || !/\bslide-(me|them)\b/.test(el.className)) continue;
          const cs = getComputedStyle(el);
          seen.push({ cell: el.dataset.cell ?? '', name: cs.animationName, ms: parseFloat(cs.animationDuration) * 1000 });
        }
      }).observe(document, { subtree: true, attributes: true, attributeFilter: ['class'] });
    });
    await page.goto('/');
    await page.getByTestId('quick-master').click();
    const master = page.getByTestId('master');
    await expect(master).toHaveAttribute('data-my-turn', 'true', { timeout: 15_000 });
    const placed = Number(await master.getAttribute('data-placed'));
    await page.locator('.hand button.card:not([disabled])').first().click();
    const cell = (await page.locator('button.cell.legal:not([disabled])').first().getAttribute('data-cell'))!;
    await page.locator(`button.cell.legal[data-cell="${cell}"]`).click();
    await expect.poll(async () => Number(await master.getAttribute('data-placed'))).toBeGreaterThan(placed);
    // the card is on its cell at once: the slide never holds back the state
    await expect(page.locator(`.placed[data-cell="${cell}"]`)).toBeVisible();
    const slides = await page.evaluate(() => (window as unknown as { __slides: { cell: string; name: string; ms: number }[] }).__slides);
    const mine = slides.find((s) => s.cell === cell);
    expect(mine, 'the placed card was marked to slide').toBeTruthy();
    if (reduced) expect(mine!.name).toBe('none');
    else {
      expect(mine!.name).not.toBe('none');
      expect(mine!.ms).toBeGreaterThan(0);
      expect(mine!.ms).toBeLessThan(600);
    }
    // the bot's answer slides in from across the table; with reduced motion nothing moves, so
    // its mark stays until a click (waited for first: a click before the answer came would
    // leave the answer's mark on)
    await expect(master).toHaveAttribute('data-my-turn', 'true', { timeout: 15_000 });
    await expect.poll(async () => Number(await master.getAttribute('data-placed'))).toBeGreaterThan(placed + 1);
    const theirs = (await page.evaluate(() => (window as unknown as { __slides: { cell: string; name: string }[] }).__slides)).filter((s) => s.cell !== cell);
    expect(theirs.length, "the bot's card was marked to slide").toBeGreaterThan(0);
    if (reduced) {
      expect(theirs.every((s) => s.name === 'none')).toBe(true);
      await expect(page.locator('.placed.slide-them')).toHaveCount(1);
    }
    // a click anywhere finishes a slide: none is left running
    await page.locator('h1').click();
    await expect(page.locator('.placed.slide-me, .placed.slide-them')).toHaveCount(0);
    await ctx.close();
  }
});
