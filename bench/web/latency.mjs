// Move latency between browsers on loopback (issue 14: "a move made in one browser appears in
// the others within 100 ms"): from the click in one browser context until the move is in the
// DOM of each other context. Debian's Chromium drives one context per player (plus a
// spectator) against a real `dragonlair serve` (SQLite, 127.0.0.1, a temporary folder).
//
// Clock: every page stamps with performance.timeOrigin + its high-resolution time (one
// machine, one clock): the click by the event's timeStamp (when the browser dispatched it),
// the arrival by a MutationObserver on the game root's counter attribute (Master:
// data-placed; Fist: data-history), recorded when the DOM changed (before paint).
// Moves are made one at a time; the next waits until every context shows the last one.
//
//   node bench/web/latency.mjs [--moves N] [--json FILE]     (bash bench/web.sh runs it)
// Needs the built client (npm run build in web/), .venv and web/node_modules.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(join(repo, 'web', 'package.json'));
const { chromium } = require('@playwright/test');

const args = process.argv.slice(2);
const arg = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const MOVES = Number(arg('--moves', '50'));
const JSON_OUT = arg('--json', null);

function freePort() {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (addr && typeof addr === 'object' ? ok(addr.port) : fail(new Error('no port'))));
    });
  });
}

async function startServer() {
  const port = await freePort();
  const data = mkdtempSync(join(tmpdir(), 'dragonlair-bench-'));
  const exe = process.env.DRAGONLAIR_SERVE ?? join(repo, '.venv/bin/dragonlair');
  const child = spawn(exe, ['serve', '--host', '127.0.0.1', '--port', String(port), '--data', data], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, COLUMNS: '300' } });
  let err = '';
  child.stderr.on('data', (b) => (err += b.toString()));
  const url = await new Promise((ok, fail) => {
    let out = '';
    child.stdout.on('data', (b) => {
      out += b.toString();
      const m = /open (http:\/\/127\.0\.0\.1:\d+)\/ in a browser/.exec(out);
      if (m) ok(m[1]);
    });
    child.on('exit', () => fail(new Error(`dragonlair serve exited: ${err}`)));
  });
  return { child, url };
}

// the page's side: the last click's time, and each new value of the root's counter attribute
function probe() {
  const now = () => performance.timeOrigin + performance.now();
  const w = window;
  w.__bench = { clicks: [], seen: [] };
  document.addEventListener('click', (e) => w.__bench.clicks.push(performance.timeOrigin + e.timeStamp), true);
  let last = null;
  const check = () => {
    const root = document.querySelector('[data-bench-counter]') ?? document.querySelector('[data-testid="master"], [data-testid="fist"]');
    if (!root) return;
    const attr = root.getAttribute('data-testid') === 'master' ? 'data-placed' : 'data-history';
    const value = root.getAttribute(attr);
    if (value !== last) {
      last = value;
      w.__bench.seen.push({ value: Number(value), t: now() });
    }
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-placed', 'data-history', 'data-testid'] });
}

async function open(browser, url) {
  const ctx = await browser.newContext({ baseURL: url, locale: 'en-US', viewport: { width: 1200, height: 900 } });
  await ctx.addInitScript(probe);
  const page = await ctx.newPage();
  return { ctx, page };
}

const counter = async (page, root) => Number(await page.getByTestId(root).getAttribute(root === 'master' ? 'data-placed' : 'data-history'));

async function waitFor(fn, ms = 20_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await fn()) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('timed out');
}

/** One move by `mover`, then the latency to each other page: its first counter value above
 * `before` minus the mover's click. */
async function measure(mover, others, root, before, click) {
  await click();
  const clicked = (await mover.evaluate(() => window.__bench.clicks.at(-1)));
  const out = [];
  for (const p of others) {
    await waitFor(async () => (await counter(p, root)) > before);
    const seen = await p.evaluate(() => window.__bench.seen);
    const hit = seen.find((s) => s.value > before && s.t >= clicked - 1);
    if (hit) out.push(hit.t - clicked);
  }
  await waitFor(async () => (await counter(mover, root)) > before);
  return out;
}

async function createTable(a, game, players, others) {
  await a.page.goto('/');
  await a.page.locator('#game').selectOption(game);
  if (game === 'fist') await a.page.locator('#opt-fist-players').fill(String(players));
  for (let i = 1; i < players; i++) await a.page.locator(`#seat-${i}`).selectOption('invite');
  await a.page.getByTestId('create').click();
  for (let i = 1; i < players; i++) {
    const invite = await a.page.getByTestId(`invite-${i}`).inputValue();
    await others[i - 1].page.goto(invite);
    await waitFor(async () => !(await a.page.getByTestId(`seat-${i}`).innerText()).includes('Invite'));
  }
  const table = /\/tables\/([^#/?]+)/.exec(a.page.url())[1];
  await waitFor(async () => a.page.getByTestId('start').isEnabled());
  await a.page.getByTestId('start').click();
  return table;
}

/** Dragon Master, two players and a spectator: new games until `moves` moves are measured. */
async function master(browser, url, moves) {
  const lat = [];
  while (lat.length < moves * 2) {
    const [a, b, s] = [await open(browser, url), await open(browser, url), await open(browser, url)];
    const table = await createTable(a, 'master', 2, [b]);
    await s.page.goto(`/tables/${table}`);
    for (const p of [a, b, s]) await p.page.getByTestId('master').waitFor();
    for (let i = 0; i < 16 && lat.length < moves * 2; i++) {
      await waitFor(async () => (await a.page.getByTestId('master').getAttribute('data-my-turn')) === 'true' || (await b.page.getByTestId('master').getAttribute('data-my-turn')) === 'true');
      const [me, ...rest] = (await a.page.getByTestId('master').getAttribute('data-my-turn')) === 'true' ? [a, b, s] : [b, a, s];
      const before = await counter(me.page, 'master');
      await me.page.locator('.hand button.card:not([disabled])').first().click();
      const cell = me.page.locator('button.cell.legal:not([disabled])').first();
      lat.push(...(await measure(me.page, rest.map((r) => r.page), 'master', before, () => cell.click())));
    }
    await Promise.all([a, b, s].map((p) => p.ctx.close()));
  }
  return lat;
}

/** Fist of Dragonstones, four players and a spectator: empty-fist bids, Silver 0, the first
 * power choice, one move at a time. */
async function fist(browser, url, moves) {
  const lat = [];
  let count = 0;
  while (count < moves) {
    const ps = [];
    for (let i = 0; i < 5; i++) ps.push(await open(browser, url));
    const table = await createTable(ps[0], 'fist', 4, ps.slice(1, 4));
    await ps[4].page.goto(`/tables/${table}`);
    for (const p of ps) await p.page.getByTestId('fist').waitFor();
    while (count < moves && (await ps[0].page.getByTestId('end').count()) === 0) {
      let mover = null;
      await waitFor(async () => {
        for (const p of ps.slice(0, 4)) {
          const kind = await p.page.getByTestId('fist').getAttribute('data-legal');
          const busy = await p.page.locator('[data-testid="submit-bid"][disabled], [data-testid="submit-silver"][disabled], [data-testid="choice"][disabled]').count();
          if (kind !== 'none' && busy === 0) { mover = p; return true; }
        }
        return (await ps[0].page.getByTestId('end').count()) > 0;
      });
      if (!mover) break;
      const kind = await mover.page.getByTestId('fist').getAttribute('data-legal');
      const button = kind === 'bid' ? mover.page.getByTestId('submit-bid') : kind === 'silver' ? mover.page.getByTestId('submit-silver') : mover.page.getByTestId('choice').first();
      const before = await counter(mover.page, 'fist');
      const others = ps.filter((p) => p !== mover).map((p) => p.page);
      lat.push(...(await measure(mover.page, others, 'fist', before, () => button.click())));
      count += 1;
    }
    await Promise.all(ps.map((p) => p.ctx.close()));
  }
  return lat;
}

function summary(lat) {
  const s = [...lat].sort((x, y) => x - y);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  const r = (x) => Math.round(x * 10) / 10;
  return { deliveries: s.length, p50_ms: r(q(0.5)), p95_ms: r(q(0.95)), max_ms: r(s.at(-1)), mean_ms: r(s.reduce((a, b) => a + b, 0) / s.length) };
}

const { child, url } = await startServer();
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
try {
  const result = {
    master: { moves: MOVES, viewers_per_move: 2, ...summary(await master(browser, url, MOVES)) },
    fist: { moves: MOVES, viewers_per_move: 4, ...summary(await fist(browser, url, MOVES)) },
  };
  console.log('move latency, click in one browser -> the move in the DOM of each other browser (ms):');
  for (const [game, r] of Object.entries(result)) console.log(`  ${game}: ${JSON.stringify(r)}`);
  if (JSON_OUT) writeFileSync(JSON_OUT, JSON.stringify(result, null, 2));
} finally {
  await browser.close();
  child.kill('SIGTERM');
}
