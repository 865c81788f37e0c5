// Quick play against a bot from the home page, in German, moving by keyboard only; then the
// language switched in Settings, remembered across a reload.
import { expect, test } from '@playwright/test';
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

test('quick play against a bot by keyboard in German; the language switch is remembered', async ({ browser }) => {
  const de = cat('de');
  const en = cat('en');
  const ctx = await browser.newContext({ baseURL: url(), locale: 'de-DE' });
  await noConfirm(ctx); // each move sent on its first click (e2e/settings.ts)
  const page = await ctx.newPage();
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(de['web.home.title']!);
  await page.getByTestId('quick-master').click();
  const master = page.getByTestId('master');
  await expect(master).toHaveAttribute('data-my-turn', 'true', { timeout: 15_000 });
  const placed = Number(await master.getAttribute('data-placed'));
  // keyboard only: focus a card, choose it, move to a legal cell, place
  await page.locator('.hand button.card:not([disabled])').first().focus();
  await page.keyboard.press('Enter');
  await page.locator('button.cell.legal:not([disabled])').first().focus();
  await page.keyboard.press('Enter');
  await expect.poll(async () => Number(await master.getAttribute('data-placed'))).toBeGreaterThan(placed);
  await shoot(page, 'master-quick-play-de.png');

  await page.goto('/settings');
  await page.locator('#lang').selectOption('en');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en['web.settings.title']!);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en['web.home.title']!);
  // the table just created is in the list of running tables
  await expect(page.getByRole('link', { name: en['web.home.watch']! }).first()).toBeVisible();
  await ctx.close();
});
