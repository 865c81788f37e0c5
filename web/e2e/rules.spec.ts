// The rules pages (GET /api/games/{game}/rules drawn by screens/Rules.svelte): opened from home
// in English and from a table in German, a card of each game visible under its catalogue name
// (web/public/i18n, exported from the same .po files the terminal uses), and a Fist table's own
// custom characters (F9) listed on the rules page opened from that table, with the way back.
// Screenshots go to test-results/screenshots/.
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

// one card of each game, by its catalogue key: a standard Fist character, a special one, a
// Master card, a Farkle companion and item
const CARDS: Record<string, string[]> = {
  fist: ['fist.card.witch.name', 'fist.card.doppelganger.name'],
  master: ['master.card.ruby', 'master.card.egg'],
  farkle: ['farkle.card.battle-mage.name', 'farkle.card.dragonsbane-arrow.name'],
};

async function cardsVisible(page: Page, game: string, lang: string): Promise<void> {
  const words = cat(lang);
  const rules = page.getByTestId('rules');
  await expect(rules).toHaveAttribute('data-game', game);
  for (const key of CARDS[game]!) {
    const name = words[key];
    expect(name, key).toBeTruthy();
    await expect(rules.locator('tbody th[scope=row]').filter({ hasText: name! }).first()).toBeVisible();
  }
}

test('the rules of each game in English, opened from home, every game a card', async ({ browser }) => {
  const en = cat('en');
  const ctx = await browser.newContext({ baseURL: url(), locale: 'en-US' });
  const page = await ctx.newPage();
  await page.goto('/');
  for (const game of ['fist', 'master', 'farkle']) {
    await page.goto('/');
    await page.getByTestId(`rules-${game}`).click();
    await expect(page).toHaveURL(new RegExp(`/rules/${game}$`));
    await cardsVisible(page, game, 'en');
    await expect(page.locator('nav a[aria-current=page]')).toHaveText(en[`web.game.${game}`]!);
    await shoot(page, `rules-${game}-en.png`);
  }
  // the language switched on the page: the same page in German, without reloading
  await page.goto('/settings');
  await page.locator('#lang').selectOption('de');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await page.goto('/rules/master');
  await cardsVisible(page, 'master', 'de');
  await ctx.close();
});

test('a Fist table in German: its rules list the table\'s own characters, and lead back', async ({ browser }) => {
  const de = cat('de');
  const ctx = await browser.newContext({ baseURL: url(), locale: 'de-DE', viewport: { width: 360, height: 740 } });
  let page = await ctx.newPage();
  await page.goto('/'); // a guest
  await expect(page.getByTestId('create')).toBeVisible();
  const custom = [{
    id: 'moneylender', count: 1, name: { en: 'Moneylender', de: 'Geldverleiher' },
    text: { en: 'Pay any 2 stones for 1 point, or take 2 Common Gold and 1 Silver.', de: 'Zahle 2 beliebige Steine für 1 Punkt, oder nimm 2 Gemeingold und 1 Silber.' },
    power: [{ either: { pay_stones: { count: 2, pattern: 'any', points: 1 } }, or: { gain: { common: 2, silver: 1 } } }],
  }];
  const made = await page.request.post('/api/tables', { data: { game: 'fist', options: { players: 3, custom }, rated: false } });
  expect(made.ok()).toBe(true);
  const id = ((await made.json()) as { id: string }).id;

  await page.goto(`/tables/${id}`);
  const table = page;
  // the rules open in a new tab, so that the table keeps its connection
  const [rules] = await Promise.all([ctx.waitForEvent('page'), table.getByTestId('to-rules').click()]);
  page = rules;
  await expect(table.getByTestId('to-rules')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/rules/fist\\?table=${id}$`));
  await cardsVisible(page, 'fist', 'de');
  const own = page.getByTestId('rules-custom');
  await expect(own.locator('caption')).toHaveText(de['web.rules.custom']!);
  await expect(own.locator('tbody tr')).toHaveCount(1);
  await expect(own.locator('tbody th')).toHaveText('Geldverleiher');
  await expect(own.locator('tbody td').last()).toContainText('Zahle 2 beliebige Steine');
  await own.scrollIntoViewIfNeeded();
  await shoot(page, 'rules-fist-table-de-phone.png');
  // no page wider than the phone
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  // another game's rules from the same table: no Fist characters there; then back to the table
  await page.locator('nav a[href^="/rules/master"]').click();
  await cardsVisible(page, 'master', 'de');
  await expect(page.getByTestId('rules-custom')).toHaveCount(0);
  await page.getByTestId('rules-back').focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/tables/${id}$`));
  await expect(page.getByTestId('to-rules')).toBeVisible();

  // a table that does not exist only means no extra cards
  await page.goto('/rules/fist?table=nosuchtable');
  await cardsVisible(page, 'fist', 'de');
  await expect(page.getByTestId('rules-custom')).toHaveCount(0);
  await ctx.close();
});

test('the Rules link in the menu opens the first game of the registry', async ({ browser }) => {
  const en = cat('en');
  const ctx = await browser.newContext({ baseURL: url(), locale: 'en-US' });
  const page = await ctx.newPage();
  await page.goto('/');
  const games = (await (await page.request.get('/api/games')).json()) as { id: string }[];
  const first = games[0]!.id; // the registry's order, as the server lists it
  await page.getByRole('link', { name: en['web.nav.rules']!, exact: true }).click();
  // /rules alone is replaced by the first game's own address, so Back does not bounce
  await expect(page).toHaveURL(new RegExp(`/rules/${first}$`));
  await expect(page.getByTestId('rules')).toHaveAttribute('data-game', first);
  await expect(page.locator('nav a[aria-current=page]')).toHaveText(en[`web.game.${first}`]!);
  await shoot(page, 'rules-from-menu-en.png');
  await ctx.close();
});
