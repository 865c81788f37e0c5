// The new-table form without JSON (issue 25): a Farkle scoring table chosen from the plugin's
// presets, decks from a file the server checks first (every bad line named with its number,
// the form not sent meanwhile), a help line under every option; then the game's log: lines
// with icons, in groups with headings, newest at the bottom, and "Only mine".
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { shoot } from './shoot';
import { noConfirm } from './settings';

const here = dirname(fileURLToPath(import.meta.url));
const url = (): string =>
  process.env.DRAGONLAIR_E2E_URL ?? (JSON.parse(readFileSync(resolve(tmpdir(), 'dragonlair-e2e-server.json'), 'utf-8')) as { url: string }).url;
const cat = (lang: string) => (JSON.parse(readFileSync(resolve(here, `../public/i18n/${lang}.json`), 'utf-8')) as { messages: Record<string, string> }).messages;
/** Serious and critical axe violations (WCAG 2 A/AA), one line each (as e2e/a11y.spec.ts). */
async function violations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.impact} ${v.id}: ${n.target.join(' ')}`));
}
const decks = readFileSync(resolve(here, '../../dragonlair/games/farkle/examples/decks.toml'), 'utf-8');

for (const [width, lang] of [[1280, 'en'], [360, 'de']] as const) {
  test(`a Farkle table from presets and a checked deck file, and its log (${width} px, ${lang})`, async ({ browser }) => {
    test.setTimeout(120_000);
    const m = cat(lang);
    const ctx = await browser.newContext({ baseURL: url(), locale: lang === 'de' ? 'de-DE' : 'en-US', viewport: { width, height: 900 } });
    await noConfirm(ctx);
    const page = await ctx.newPage();
    await page.goto('/');
    await page.locator('#game').selectOption('farkle');
    // no JSON anywhere; a help line under every option
    await expect(page.locator('#create ~ form textarea, form textarea')).toHaveCount(0);
    for (const name of ['players', 'dragon', 'table', 'decks', 'max_turns']) {
      await expect(page.locator(`#opt-farkle-${name}-help`)).toHaveText(m[`web.option.farkle.${name}.help`]!);
    }
    await page.locator('#opt-farkle-max_turns').fill('3');
    await page.getByTestId('source-table').selectOption({ label: m['web.option.farkle.table.preset.classic']! });
    await expect(page.getByTestId('preset-about-table')).toHaveText(m['web.option.farkle.table.preset.classic.help']!);
    await page.getByTestId('source-decks').selectOption('file');
    await expect(page.locator('label[for="opt-farkle-decks-file"]')).toHaveText(m['web.option.file.choose']!);

    // a bad file: each bad line named, and the form is not sent
    const bad = decks.replace('effect = "scare"', 'effect = "fly"').replace('count = 5', 'count = 99');
    const lines = bad.split('\n');
    await page.getByTestId('file-decks').setInputFiles({ name: 'decks.toml', mimeType: 'text/plain', buffer: Buffer.from(bad) });
    const problems = page.getByTestId('file-problems-decks').locator('li');
    await expect(problems).toHaveCount(2);
    const prefix = (n: number) => m['web.option.file.line']!.replace('{line}', String(n)).replace(/\{error\}.*$/, '');
    await expect(problems.nth(0)).toContainText(prefix(lines.indexOf('effect = "fly"') + 1));
    await expect(problems.nth(1)).toContainText(prefix(lines.indexOf('count = 99') + 1));
    for (let i = 1; i < 2; i++) await page.locator(`#seat-${i}`).selectOption('bot');
    await shoot(page, `newtable-farkle-bad-file-${width}.png`);
    expect(await violations(page)).toEqual([]);
    await page.getByTestId('create').click();
    await page.waitForTimeout(300);
    expect(new URL(page.url()).pathname).toBe('/');

    // a good file: taken
    await page.getByTestId('file-decks').setInputFiles({ name: 'decks.toml', mimeType: 'text/plain', buffer: Buffer.from(decks) });
    await expect(page.getByTestId('file-ok-decks')).toBeVisible();
    await shoot(page, `newtable-farkle-form-${width}.png`);
    await page.getByTestId('create').click();
    await expect(page.getByTestId('start')).toBeEnabled({ timeout: 10_000 });
    await page.getByTestId('start').click();
    await expect(page.getByTestId('farkle')).toBeVisible();

    // the log: a group per turn with its heading, lines with icons, the newest at the bottom
    const log = page.getByTestId('log');
    await expect(log.locator('h3').first()).toBeVisible({ timeout: 15_000 });
    await expect(log.locator('svg').first()).toBeVisible();
    // the table's decks are the file's: Tabby or Skree is someone's companion
    await expect(log).toContainText(/Tabby|Skree/);
    await expect.poll(async () => log.evaluate((el) => Math.abs(el.scrollHeight - el.clientHeight - el.scrollTop) < 30)).toBe(true);
    await log.scrollIntoViewIfNeeded();
    await shoot(page, `log-farkle-${width}.png`);
    expect(await violations(page)).toEqual([]);
    await page.getByTestId('log-mine').check();
    const mine = await log.locator('li.line').count();
    expect(mine).toBeGreaterThan(0);
    expect(await log.locator('li.line:not(.mine)').count()).toBe(0);
    await page.getByTestId('log-mine').uncheck();
    await ctx.close();
  });
}

test('a Fist log: an auction group, my own sealed bid read once', async ({ browser }) => {
  test.setTimeout(120_000);
  const m = cat('en');
  const ctx = await browser.newContext({ baseURL: url(), locale: 'en-US', viewport: { width: 1280, height: 900 } });
  await noConfirm(ctx);
  const page = await ctx.newPage();
  await page.goto('/');
  await page.getByTestId('quick-fist').click();
  const log = page.getByTestId('log');
  await expect(log.locator('h3', { hasText: m['web.log.group.auction']!.replace(/\{n\}.*$/, '') }).first()).toBeVisible({ timeout: 15_000 });
  // the players' first stones: a stone icon with its letter
  await expect(log.locator('[data-icon^="stone-"]').first()).toBeVisible();
  await expect(page.getByTestId('submit-bid')).toBeEnabled({ timeout: 15_000 });
  // my sealed bid: the log reads it once ("You bid 1 Fairy Gold…"), never also "<me> has bid"
  await page.getByTestId('more-fairy').click();
  await page.getByTestId('submit-bid').click();
  const line = (text: RegExp) => log.locator('li.line').filter({ has: page.locator('.words', { hasText: text }) });
  const own = line(/^You bid\b.* 1 Fairy Gold/);
  await expect(own).toHaveCount(1, { timeout: 15_000 });
  await expect(own.locator('[data-icon="hand"]')).toHaveCount(1);
  await expect(own.locator('[data-icon="fairy"]')).toHaveCount(1);
  await expect(own).toHaveClass(/mine/);
  // the three bots' sealed bids, mine not among them (the bots may be bidding in the next
  // auction already: at least three, none of them the viewer's)
  await expect.poll(() => line(/ has bid$/).count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
  await expect(line(/ has bid$/).and(log.locator('li.mine'))).toHaveCount(0);
  await log.scrollIntoViewIfNeeded();
  await shoot(page, 'log-fist-1280.png');
  await page.setViewportSize({ width: 360, height: 800 });
  await log.scrollIntoViewIfNeeded();
  await shoot(page, 'log-fist-360.png');
  await ctx.close();
});
