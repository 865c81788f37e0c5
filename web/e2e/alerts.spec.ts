// Issue 22, the client's part: "your turn" in the tab title (and back when the turn passes),
// with the marked favicon and the tone; the confirm setting both ways on a Master game against
// a bot (on: the first click only stages the placement, "Confirm" sends it; off: the first
// click sends) and on a Farkle bank (D4.1); and the page for what does not exist, in English
// and German, with a way home. Screenshots (test-results/screenshots/): your-turn-title.png
// (the page, with the tab's favicon and title drawn over it by the test, as a tab cannot be
// photographed), confirm-move.png, settings-play.png, not-found-de.png.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { shoot } from './shoot';

const here = dirname(fileURLToPath(import.meta.url));
const url = (): string =>
  process.env.DRAGONLAIR_E2E_URL ?? (JSON.parse(readFileSync(resolve(tmpdir(), 'dragonlair-e2e-server.json'), 'utf-8')) as { url: string }).url;
const cat = (lang: string) => (JSON.parse(readFileSync(resolve(here, `../public/i18n/${lang}.json`), 'utf-8')) as { messages: Record<string, string> }).messages;

interface Probe {
  titles: string[];
  sent: string[];
  tones: number;
}

/** A context whose pages record every title set, every frame sent and every tone played
 * (wrapping the browser's own document.title, WebSocket.send and createOscillator). */
async function open(browser: Browser, locale: string): Promise<Page> {
  const ctx = await browser.newContext({ baseURL: url(), locale });
  await ctx.addInitScript(() => {
    const probe: Probe = { titles: [], sent: [], tones: 0 };
    (window as unknown as { __probe: Probe }).__probe = probe;
    const title = Object.getOwnPropertyDescriptor(Document.prototype, 'title')!;
    Object.defineProperty(Document.prototype, 'title', {
      configurable: true,
      get(this: Document) {
        return title.get!.call(this) as string;
      },
      set(this: Document, v: string) {
        probe.titles.push(String(v));
        title.set!.call(this, v);
      },
    });
    const send = WebSocket.prototype.send;
    WebSocket.prototype.send = function (this: WebSocket, d: string) {
      probe.sent.push(String(d));
      send.call(this, d);
    };
    const osc = AudioContext.prototype.createOscillator;
    AudioContext.prototype.createOscillator = function (this: AudioContext) {
      probe.tones += 1;
      return osc.call(this);
    };
  });
  return ctx.newPage();
}

const probe = (page: Page) => page.evaluate(() => (window as unknown as { __probe: Probe }).__probe);
const acts = async (page: Page) => (await probe(page)).sent.filter((d) => (JSON.parse(d) as { type: string }).type === 'act');

async function myTurn(page: Page) {
  await expect(page.getByTestId('master')).toHaveAttribute('data-my-turn', 'true', { timeout: 20_000 });
}

async function stagePlacement(page: Page): Promise<string> {
  await page.locator('.hand button.card:not([disabled])').first().click();
  const cell = page.locator('button.cell.legal:not([disabled])').first();
  const name = (await cell.getAttribute('data-cell'))!;
  await cell.click();
  return name;
}

test('your turn in the tab title and back; a placement confirmed, then sent at once with the setting off', async ({ browser }) => {
  const en = cat('en');
  const page = await open(browser, 'en-US');
  await page.goto('/');
  await expect(page).toHaveTitle('Dragonlair');
  await page.getByTestId('quick-master').click();
  const master = page.getByTestId('master');
  await myTurn(page);

  // the tab says it, in the catalogue's words, with the marked icon; the tone played
  await expect(page).toHaveTitle(en['web.alert.title']!);
  expect(en['web.alert.title']).toBe('● Your turn — Dragonlair');
  expect(await page.locator('link[rel="icon"]').getAttribute('href')).toMatch(/^data:image\/svg\+xml,/);
  expect((await probe(page)).tones).toBeGreaterThan(0);
  // a tab title cannot be photographed: the test draws it over the page for the screenshot
  await page.evaluate(() => {
    // drawn like a browser tab: the favicon as the page set it, and the title
    const tab = document.createElement('div');
    tab.id = 'title-probe';
    const icon = document.createElement('img');
    icon.src = document.querySelector<HTMLLinkElement>('link[rel="icon"]')!.href;
    icon.alt = '';
    icon.style.cssText = 'width:18px;height:18px;vertical-align:middle;margin-right:8px';
    tab.append(icon, document.title);
    tab.style.cssText = 'position:fixed;top:56px;right:12px;background:#dfe3e8;color:#111;padding:6px 14px;border-radius:8px 8px 0 0;border:1px solid #999;font:14px sans-serif;z-index:9';
    document.body.append(tab);
  });
  await shoot(page, 'your-turn-title.png');
  await page.evaluate(() => document.getElementById('title-probe')?.remove());

  // confirm on (the default): the first click stages, nothing is sent; Cancel drops it
  const placed = Number(await master.getAttribute('data-placed'));
  const cell = await stagePlacement(page);
  await expect(page.getByTestId('confirm-bar')).toBeVisible();
  await expect(page.getByTestId('confirm-bar')).toContainText(cell);
  expect(await acts(page)).toEqual([]);
  await expect(page.getByTestId('confirm-move')).toBeFocused(); // Enter confirms
  await shoot(page, 'confirm-move.png');
  const axe = await new AxeBuilder({ page }).include('[data-testid=confirm-bar]').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  await page.getByTestId('cancel-move').click();
  await expect(page.getByTestId('confirm-bar')).toHaveCount(0);
  expect(await acts(page)).toEqual([]);
  expect(Number(await master.getAttribute('data-placed'))).toBe(placed);

  // staged again, and Confirm sends it
  const titlesBefore = (await probe(page)).titles.length;
  await stagePlacement(page);
  await page.getByTestId('confirm-move').click();
  await expect.poll(async () => (await acts(page)).length).toBe(1);
  await expect.poll(async () => Number(await master.getAttribute('data-placed'))).toBeGreaterThan(placed);
  // the turn passed to the bot: the title went back (and comes again on the next turn)
  await expect.poll(async () => (await probe(page)).titles.slice(titlesBefore)).toContain('Dragonlair');
  await myTurn(page);
  await expect(page).toHaveTitle(en['web.alert.title']!);

  // confirm off in Settings: the first click sends
  const table = page.url();
  await page.getByRole('link', { name: en['web.nav.settings']! }).click();
  await expect(page).toHaveTitle('Dragonlair'); // the table screen was left
  await expect(page.locator('link[rel="icon"]')).toHaveAttribute('href', '/favicon.svg');
  await page.getByTestId('setting-confirm').uncheck();
  await shoot(page, 'settings-play.png');
  await page.goto(table);
  await myTurn(page);
  const placed2 = Number(await master.getAttribute('data-placed'));
  await stagePlacement(page);
  await expect.poll(async () => (await acts(page)).length).toBe(1); // a fresh page: its own count
  await expect.poll(async () => Number(await master.getAttribute('data-placed'))).toBeGreaterThan(placed2);
  await expect(page.getByTestId('confirm-bar')).toHaveCount(0);
  await page.context().close();
});

test('a Farkle bank waits for its confirm (on by default); a roll and a keep go at once', async ({ browser }) => {
  const page = await open(browser, 'en-US');
  await page.goto('/');
  await expect(page.getByTestId('quick-farkle')).toBeVisible(); // signed in as a guest by now
  const r = await page.request.post('/api/tables', {
    data: { game: 'farkle', options: {}, rated: false, seats: [{ kind: 'me' }, { kind: 'bot' }] },
  });
  expect(r.status()).toBe(201);
  const id = ((await r.json()) as { id: string }).id;
  expect((await page.request.post(`/api/tables/${id}/start`)).status()).toBe(200);
  await page.goto(`/tables/${id}`);
  const root = page.getByTestId('farkle');
  let banked = false;
  for (let moves = 0; moves < 80 && !banked; moves++) {
    await expect(root).toHaveAttribute('data-my-turn', 'true', { timeout: 20_000 });
    const history = await root.getAttribute('data-history');
    const sent = (await acts(page)).length;
    const actions = await page.getByTestId('action').evaluateAll((bs) => bs.map((b) => b.getAttribute('data-action') ?? ''));
    const keeps = page.getByTestId('keep');
    if (actions.includes('bank')) {
      // D4.1: banking ends the turn; the first click only stages it
      await page.locator('[data-testid=action][data-action="bank"]').click();
      await expect(page.getByTestId('confirm-bar')).toHaveAttribute('data-staged', 'bank');
      expect((await acts(page)).length).toBe(sent);
      await page.keyboard.press('Enter'); // "Confirm" has the focus
      banked = true;
    } else {
      const chosen = (await keeps.count()) > 0 ? (await keeps.first().getAttribute('data-action'))!
        : actions.find((a) => a === 'recruit' || a === 'roll') ?? actions.find((a) => !/^(skirmish|battle|stop)/.test(a)) ?? actions[0]!;
      await page.locator(`[data-action="${chosen}"]`).first().click();
      if (/^(skirmish|battle|stop)/.test(chosen)) await page.getByTestId('confirm-move').click();
      else await expect(page.getByTestId('confirm-bar')).toHaveCount(0);
    }
    await expect.poll(async () => (await acts(page)).length).toBe(sent + 1);
    await expect.poll(async () => (await root.getAttribute('data-history')) !== history || (await page.getByTestId('end').count()) > 0, { timeout: 20_000 }).toBe(true);
    if ((await page.getByTestId('end').count()) > 0) break;
  }
  expect(banked).toBe(true);
  await page.context().close();
});

for (const lang of ['en', 'de'] as const) {
  test(`what does not exist has its page in ${lang}, with a way home`, async ({ browser }) => {
    const m = cat(lang);
    const page = await open(browser, lang === 'de' ? 'de-DE' : 'en-US');
    const cases: [string, string, string][] = [
      ['/no/such/page', 'route', ''],
      ['/tables/nosuchtable0001', 'table', 'nosuchtable0001'],
      ['/tables/nosuchtable0001/replay', 'replay', 'nosuchtable0001'],
      ['/users/nobody-by-this-name', 'user', 'nobody-by-this-name'],
      ['/leaderboards/nosuchgame', 'game', 'nosuchgame'],
      ['/rules/nosuchgame', 'game', 'nosuchgame'],
    ];
    for (const [path, what, name] of cases) {
      const answer = await page.goto(path);
      expect(answer?.headers()['content-type'] ?? '', path).toContain('text/html'); // never raw JSON
      const nf = page.getByTestId('not-found');
      await expect(nf, path).toBeVisible();
      await expect(nf).toHaveAttribute('data-what', what);
      await expect(nf.getByRole('heading', { level: 1 })).toHaveText(m['web.notfound.title']!);
      if (name) await expect(nf).toContainText(name);
      await expect(page.getByText(m['web.loading']!)).toHaveCount(0);
    }
    if (lang === 'de') await shoot(page, 'not-found-de.png');
    await page.getByTestId('go-home').click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(m['web.home.title']!);
    await page.context().close();
  });
}
