// The tips pages (GET /api/games/{game}/tips drawn by screens/Tips.svelte, issue 16): each
// game's page opened from home in English, two in German on a phone; the page shows the
// paragraphs and the tables of figures (Fist's characters with their 95% intervals, Master's
// deciding lines) exactly as the server sends them (the words from tips.po, the numbers from
// dragonlair/tips/data), and where the figures come from in a player's words (web.tips.source,
// not the command that measured them). Screenshots go to test-results/screenshots/.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { shoot } from './shoot';

const here = dirname(fileURLToPath(import.meta.url));
const url = (): string =>
  process.env.DRAGONLAIR_E2E_URL ?? (JSON.parse(readFileSync(resolve(tmpdir(), 'dragonlair-e2e-server.json'), 'utf-8')) as { url: string }).url;
const cat = (lang: string) => (JSON.parse(readFileSync(resolve(here, `../public/i18n/${lang}.json`), 'utf-8')) as { messages: Record<string, string> }).messages;

type TipsTable = { caption: string; columns: string[]; rows: string[][] };
type TipsPage = { title: string; paragraphs: string[]; tables: TipsTable[]; source: string };

/** The tables on the page are the tables the server sent: caption, heads and every cell. */
async function expectTables(page: Page, sent: TipsTable[]): Promise<void> {
  const tables = page.getByTestId('tips-table');
  await expect(tables).toHaveCount(sent.length);
  for (const [i, table] of sent.entries()) {
    const shown = tables.nth(i);
    await expect(shown.locator('caption')).toHaveText(table.caption);
    await expect(shown.locator('tbody tr')).toHaveCount(table.rows.length);
    const cells = await shown.locator('tbody tr').evaluateAll((rows) =>
      rows.map((r) => Array.from(r.children, (c) => (c.textContent ?? '').trim())));
    expect(cells).toEqual(table.rows);
  }
}

/** Serious and critical axe violations (WCAG 2 A/AA) of the page, one line each. */
async function violations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`);
}

test('the tips of each game in English, opened from home', async ({ browser }) => {
  const en = cat('en');
  const ctx = await browser.newContext({ baseURL: url(), locale: 'en-US' });
  const page = await ctx.newPage();
  for (const game of ['fist', 'master', 'farkle']) {
    await page.goto('/');
    await page.getByTestId(`tips-${game}`).click();
    await expect(page).toHaveURL(new RegExp(`/tips/${game}$`));
    const sent = (await (await page.request.get(`/api/games/${game}/tips?lang=en`)).json()) as TipsPage;
    const tips = page.getByTestId('tips');
    await expect(tips).toHaveAttribute('data-game', game);
    await expect(tips.locator('h1')).toHaveText(sent.title);
    await expect(tips.getByTestId('tip')).toHaveText(sent.paragraphs);
    // where the figures come from in a player's words, not the command that measured them
    await expect(tips.getByTestId('tips-source')).toHaveText(en['web.tips.source'] as string);
    expect(await tips.innerText()).not.toMatch(/dragonlair |--regenerate/);
    await expectTables(page, sent.tables);
    if (game !== 'farkle') {
      expect(sent.tables.length).toBeGreaterThan(0);
      await expect(page.getByTestId('tips-table').first().locator('thead th')).toHaveText(sent.tables[0]!.columns);
    }
    await expect(page.locator('nav a[aria-current=page]')).toHaveText(en[`web.game.${game}`]!);
    expect(await violations(page)).toEqual([]);
    await shoot(page, `tips-${game}-en.png`);
  }
  await ctx.close();
});

test('the Farkle and Fist tips in German, on a phone', async ({ browser }) => {
  const ctx = await browser.newContext({ baseURL: url(), locale: 'de-DE', viewport: { width: 360, height: 740 } });
  const page = await ctx.newPage();
  await page.goto('/settings');
  await page.locator('#lang').selectOption('de');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await page.goto('/tips/farkle');
  const sent = (await (await page.request.get('/api/games/farkle/tips?lang=de')).json()) as TipsPage;
  expect(sent.title).toContain('Tipps');
  const tips = page.getByTestId('tips');
  await expect(tips.locator('h1')).toHaveText(sent.title);
  await expect(tips.getByTestId('tip')).toHaveText(sent.paragraphs);
  expect(await violations(page)).toEqual([]);
  await shoot(page, 'tips-farkle-de.png');
  // Fist's character table, stacked on a narrow screen: every cell under its column head,
  // nothing wider than the phone
  await page.goto('/tips/fist');
  const fist = (await (await page.request.get('/api/games/fist/tips?lang=de')).json()) as TipsPage;
  await expect(tips.locator('h1')).toHaveText(fist.title);
  await expectTables(page, fist.tables);
  const cell = page.getByTestId('tips-table').locator('tbody tr').first().locator('td').first();
  expect(await cell.getAttribute('data-label')).toBe(fist.tables[0]!.columns[1]);
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(wide).toBeLessThanOrEqual(360);
  expect(await violations(page)).toEqual([]);
  await shoot(page, 'tips-fist-de.png');
  await ctx.close();
});
