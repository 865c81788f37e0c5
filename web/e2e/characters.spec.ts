// The character workshop (/characters, issue 16; custom Fist characters, rule F9): a character
// made in the editor (English, desktop) with a live preview in English and German, made
// invalid and fixed again, a quick balance report, exported as TOML; the file imported by a
// German phone; then "a custom character made in the editor plays a whole game at a table":
// the first browser takes it to a table of its own against two bots with only the custom
// characters in the special deck (option specials = custom) and plays to the end through the
// UI; the custom card is auctioned under its own name with its text, the table lists it, and
// no WebSocket frame carries another seat's secrets. Also axe on the workshop at desktop and
// 360 px. Screenshots: test-results/screenshots/characters-*.png.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { moveIfAsked, scanFist } from './fistplay';
import { recordFrames } from './frames';
import { shoot } from './shoot';
import { noConfirm } from './settings';

const url = (): string =>
  process.env.DRAGONLAIR_E2E_URL ?? (JSON.parse(readFileSync(resolve(tmpdir(), 'dragonlair-e2e-server.json'), 'utf-8')) as { url: string }).url;

async function open(browser: Browser, opts: { locale: string; viewport?: { width: number; height: number } }) {
  const ctx = await browser.newContext({ baseURL: url(), locale: opts.locale, viewport: opts.viewport ?? { width: 1200, height: 900 }, acceptDownloads: true, reducedMotion: 'reduce' });
  await noConfirm(ctx); // each move sent on its first click (e2e/settings.ts)
  const page = await ctx.newPage();
  const frames = recordFrames(page);
  return { ctx, page, frames };
}

async function violations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.impact} ${v.id}: ${n.target.join(' ')} — ${n.failureSummary?.split('\n')[1]?.trim() ?? v.help}`));
}


test('a character made in the workshop: preview in both languages, balance, export, import in German, and a whole game at a table', async ({ browser }) => {
  test.setTimeout(300_000);
  const a = await open(browser, { locale: 'en-US' });
  const p = a.page;
  await p.goto('/');
  await p.getByTestId('characters-fist').click();
  await expect(p).toHaveURL(/\/characters$/);
  await expect(p.locator('#add-primitive option[value="pay_stones"]')).toHaveCount(1);

  // two steps: take 1 Common Gold and 1 Silver, then pay 2 stones of any colours for 1 point
  await p.getByTestId('name-en').fill('Silver Baron');
  await p.getByTestId('name-de').fill('Silberbaron');
  await expect(p.getByTestId('char-id')).toHaveValue('silver-baron');
  await p.getByTestId('add-primitive').selectOption('gain');
  await p.getByTestId('add-step').click();
  await p.locator('#step-0-f-common').fill('1');
  await p.locator('#step-0-f-silver').fill('1');
  await p.getByTestId('add-primitive').selectOption('pay_stones');
  await p.getByTestId('add-step').click();
  await expect(p.locator('#step-1-f-count')).toHaveValue('2');
  await expect(p.getByTestId('preview-en')).toContainText('Silver Baron');
  await expect(p.getByTestId('preview-en')).toContainText(/Silver[\s\S]*2/);
  await expect(p.getByTestId('preview-de')).toContainText('Silberbaron');
  await expect(p.getByTestId('preview-de')).toContainText('Silber');
  await expect(p.getByTestId('preview-de')).toContainText(/zahle|Steine/);
  const germanText = await p.getByTestId('preview-de').locator('.text').innerText();
  expect(germanText).not.toMatch(/\b(Take|pay|stones|any)\b/);

  // "each" with 2 stones is refused (F9: a count divisible by 3), naming the step; then fixed
  await p.locator('#step-1-f-pattern').selectOption('each');
  await expect(p.getByTestId('check-error')).toContainText(/step 2/);
  await expect(p.getByTestId('preview-en')).toHaveClass(/stale/);
  await expect(p.getByTestId('play-at-table')).toBeDisabled();
  await p.locator('#step-1-f-pattern').selectOption('any');
  await expect(p.getByTestId('check-error')).toHaveText('');
  await expect(p.getByTestId('preview-en')).not.toHaveClass(/stale/);
  await expect(p.getByTestId('mine-silver-baron')).toBeVisible();
  await shoot(p, `characters-editor-en.png`);

  // a quick balance report of 50 games
  await p.getByTestId('balance-games').selectOption('50');
  await p.getByTestId('run-balance').click();
  await expect(p.getByTestId('balance-row-silver-baron')).toBeVisible({ timeout: 90_000 });
  await expect(p.getByTestId('balance-row-silver-baron')).toContainText('Silver Baron');
  await expect(p.getByTestId('balance-summary')).toContainText(/Silver Baron (looks|is within|.*Nobody)/);
  await shoot(p, `characters-balance-en.png`);

  // export as TOML: the file the terminal loads
  const [download] = await Promise.all([p.waitForEvent('download'), p.getByTestId('export-one').click()]);
  expect(download.suggestedFilename()).toBe('silver-baron.toml');
  const file = readFileSync((await download.path())!, 'utf-8');
  expect(file).toContain('[[character]]');
  expect(file).toContain('id = "silver-baron"');

  // axe on the workshop, desktop
  expect(await violations(p)).toEqual([]);

  // a German phone imports the file and sees the character under its German name
  const b = await open(browser, { locale: 'de-DE', viewport: { width: 360, height: 740 } });
  await b.page.goto('/characters');
  await expect(b.page.getByRole('heading', { level: 1 })).toHaveText('Charakterwerkstatt');
  await b.page.getByTestId('import').setInputFiles({ name: 'silver-baron.toml', mimeType: 'application/toml', buffer: Buffer.from(file) });
  await expect(b.page.getByTestId('mine-silver-baron')).toContainText('Silberbaron');
  await expect(b.page.getByTestId('notice')).toContainText('Silberbaron');
  await expect(b.page.getByTestId('preview-de')).toContainText('Silberbaron');
  expect(await b.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  // nothing is cut off on the right either (main hides what overflows)
  const overflow = await b.page.evaluate(() =>
    [...document.querySelectorAll('main *')].filter((e) => e.getBoundingClientRect().right > 361 && e.getBoundingClientRect().width > 0).map((e) => e.tagName + '.' + e.className).slice(0, 5));
  expect(overflow).toEqual([]);
  await shoot(b.page, `characters-editor-de-phone.png`);
  expect(await violations(b.page)).toEqual([]);
  await b.ctx.close();

  // play at a table: me and two bots, only the custom characters, two turns
  await p.getByTestId('play-at-table').click();
  await expect(p.locator('#game')).toHaveValue('fist');
  await expect(p.getByTestId('pick-silver-baron')).toBeChecked();
  await p.locator('#opt-fist-players').fill('3');
  await p.locator('#opt-fist-max_turns').fill('2');
  await p.locator('#opt-fist-specials').selectOption({ label: 'only the custom characters (playtest)' });
  for (const i of [1, 2]) {
    await p.locator(`#seat-${i}`).selectOption('bot');
    await p.locator(`#bot-${i}`).selectOption('heuristic');
  }
  await p.getByTestId('create').click();
  await expect(p.getByTestId('start')).toBeEnabled({ timeout: 10_000 });
  await expect(p.getByTestId('lobby-custom')).toContainText('Silver Baron');
  const tableId = /\/tables\/([^#/?]+)/.exec(p.url())![1]!;
  await p.getByTestId('start').click();
  await expect(p.getByTestId('fist')).toBeVisible();
  await expect(p.getByTestId('table-custom')).toContainText('Silver Baron');

  let seed = 5;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const kinds = new Map<string, number>();
  let seenCustom = 0;
  let shot = false;
  for (let i = 0; i < 500 && (await p.getByTestId('end').count()) === 0; i++) {
    const card = p.getByTestId('card');
    // read without waiting: the card may go (the game ends) between a count and a read, and
    // a locator's getAttribute would then wait for one to the test's timeout
    const up = await card.evaluateAll((els) => els[0]?.getAttribute('data-card') ?? null);
    if (up === 'silver-baron') {
      seenCustom += 1;
      if (!shot) {
        shot = true;
        await expect(card).toContainText('Silver Baron');
        await expect(p.getByTestId('card-text')).toContainText(/Silver[\s\S]*2/);
        await shoot(p, `characters-table.png`);
        // the log names the custom card by its own name (the log keeps only its last lines,
        // so this is checked while the card is up)
        await expect(p.locator('ol.log')).toContainText('Silver Baron');
        await expect(p.locator('ol.log')).not.toContainText('silver-baron');
      }
    }
    const k = await moveIfAsked(p, rnd);
    if (k) kinds.set(k, (kinds.get(k) ?? 0) + 1);
    else await p.waitForTimeout(50);
  }
  console.log(`custom character game, moves through the UI: ${JSON.stringify(Object.fromEntries(kinds))}`);
  await expect(p.getByTestId('end')).toBeVisible({ timeout: 20_000 });
  expect(shot, 'the custom card was up for auction under its own name').toBe(true);
  await expect(p.getByTestId('table-custom')).toContainText('Silver Baron');
  await shoot(p, `characters-table-end.png`);

  const record = (await (await p.request.get(`/api/tables/${tableId}/record`)).json()) as { actions: string[]; options?: Record<string, unknown> };
  scanFist(record, 'p0', a.frames, 0);
  await a.ctx.close();
});
