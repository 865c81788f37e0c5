// A game installed as its own package (docs/new-game.md; CI installs examples/hoard) has no
// screen of its own: it is offered on the home page, played against its bot on the generic
// screen to the end, and every word on the way is the game's own, in the reader's language
// (its catalogues served with the client's), never a raw code.
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { shoot } from './shoot';
import { noConfirm } from './settings';

const url = (): string =>
  process.env.DRAGONLAIR_E2E_URL ?? (JSON.parse(readFileSync(resolve(tmpdir(), 'dragonlair-e2e-server.json'), 'utf-8')) as { url: string }).url;

/** the built-in games: each has its own screen and its own specs */
const OWN_SCREENS = new Set(['fist', 'master', 'farkle']);
/** how many installed games the run must find (scripts/test.sh installs one: 1) */
const AT_LEAST = Number(process.env.DRAGONLAIR_E2E_GENERIC_GAMES ?? '0');
/** a catalogue code left unrendered: game.area.name */
const RAW_CODE = /\b[a-z]+\.(?:[a-z_]+\.)+[a-z_]+\b/;

test('every installed game without its own screen is played to the end on the generic screen, in its own words', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const games = ((await (await request.get(`${url()}/api/games`)).json()) as { id: string }[]).map((g) => g.id).filter((id) => !OWN_SCREENS.has(id));
  expect(games.length).toBeGreaterThanOrEqual(AT_LEAST);
  for (const game of games) {
    for (const lang of ['de', 'en']) {
      const ctx = await browser.newContext({ baseURL: url(), locale: lang === 'de' ? 'de-DE' : 'en-GB' });
      await noConfirm(ctx);
      const page = await ctx.newPage();
      await page.goto('/');
      const quick = page.getByTestId(`quick-${game}`);
      await expect(quick).toBeVisible();
      expect(await quick.textContent()).not.toContain(game); // the game's own name, not its id
      await quick.click();
      const summary = page.getByTestId('generic-summary');
      await expect(summary).toBeVisible({ timeout: 15_000 });
      const end = page.getByTestId('end');
      for (let moves = 0; moves < 300 && !(await end.isVisible()); moves++) {
        const buttons = page.locator('section.panel button[data-action]:not([disabled])');
        if ((await buttons.count()) === 0) {
          await page.waitForTimeout(50);
          continue;
        }
        const text = (await page.locator('main').innerText()) ?? '';
        expect(text, `a raw code on the ${game} screen`).not.toMatch(RAW_CODE);
        // bank where one may, else roll (the game may end while we look: then no button)
        await buttons.last().click({ timeout: 2_000 }).catch(() => undefined);
        if (moves === 3) await shoot(page, `generic-${game}-${lang}.png`);
      }
      await expect(end).toBeVisible();
      const reason = (await page.getByTestId('end-reason').innerText()) ?? '';
      expect(reason).not.toMatch(RAW_CODE);
      expect(reason.length).toBeGreaterThan(5);
      await shoot(page, `generic-${game}-${lang}-end.png`);
      await ctx.close();
    }
  }
});
