// Accessibility: axe (WCAG 2 A/AA rules) on home, a table's lobby and each game screen against
// bots, at desktop and at 360 px wide, failing on serious or critical violations; stones and
// dice readable without colour (a letter or a number in the DOM, not only a colour); and a
// whole Dragon Master game against a bot played with the keyboard alone (Tab and Enter).
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { shoot } from './shoot';
import { noConfirm } from './settings';

const url = (): string =>
  process.env.DRAGONLAIR_E2E_URL ?? (JSON.parse(readFileSync(resolve(tmpdir(), 'dragonlair-e2e-server.json'), 'utf-8')) as { url: string }).url;

const SIZES = { desktop: { width: 1280, height: 900 }, phone: { width: 360, height: 740 } } as const;

async function open(browser: Browser, size: keyof typeof SIZES): Promise<Page> {
  // reduced motion (the screens honour it): a die caught halfway through its roll would be
  // judged at a passing opacity, and a new roll may come while axe runs
  const ctx = await browser.newContext({ baseURL: url(), locale: 'en-US', viewport: SIZES[size], reducedMotion: 'reduce' });
  await noConfirm(ctx); // each move sent on its first click (e2e/settings.ts)
  return ctx.newPage();
}

/** Serious and critical axe violations of the page as it stands, one line each. */
async function violations(page: Page): Promise<string[]> {
  // colours are judged as they end, not halfway through a die's roll (opacity 0.2 -> 1)
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.impact} ${v.id}: ${n.target.join(' ')} — ${n.failureSummary?.split('\n')[1]?.trim() ?? v.help}`));
}

for (const size of ['desktop', 'phone'] as const) {
  test(`axe finds nothing serious on home and a table's lobby (${size})`, async ({ browser }) => {
    const page = await open(browser, size);
    await page.goto('/');
    await expect(page.getByTestId('quick-master')).toBeVisible();
    expect(await violations(page)).toEqual([]);
    // the site's links: in the top bar on a desktop; behind the Menu button on a phone,
    // which opens them (judged open too), and closes on Escape (focus back on it)
    const menu = page.getByTestId('menu-button');
    const forum = page.locator('#site-nav').getByRole('link', { name: 'Forum' });
    if (size === 'phone') {
      await expect(forum).toBeHidden();
      await menu.click();
      await expect(menu).toHaveAttribute('aria-expanded', 'true');
      await expect(forum).toBeVisible();
      expect(await violations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await expect(forum).toBeHidden();
      await expect(menu).toBeFocused();
    } else {
      await expect(menu).toBeHidden();
      await expect(forum).toBeVisible();
    }
    await page.locator('#game').selectOption('fist');
    await page.getByTestId('create').click();
    await expect(page.getByTestId('start')).toBeVisible();
    expect(await violations(page)).toEqual([]);
    await page.context().close();
  });

  for (const game of ['master', 'fist', 'farkle'] as const) {
    test(`axe finds nothing serious on the ${game} screen against bots (${size})`, async ({ browser }) => {
      const page = await open(browser, size);
      await page.goto('/');
      await page.getByTestId(`quick-${game}`).click();
      const root = page.getByTestId(game);
      await expect(root).toBeVisible({ timeout: 20_000 });
      if (game === 'fist') await expect(root).toHaveAttribute('data-legal', 'bid', { timeout: 20_000 });
      else await expect(root).toHaveAttribute('data-my-turn', 'true', { timeout: 20_000 });
      if (game === 'farkle') {
        // a roll on screen: recruit, then wait for dice or a decision about them
        await page.locator('[data-action="recruit"]').click();
        await expect(page.getByTestId('dice')).toBeVisible({ timeout: 20_000 });
      }
      expect(await violations(page)).toEqual([]);

      // colour is never the only carrier: stones show their letter, dice their face
      if (game === 'fist') {
        const stones = await page.locator('.stone').evaluateAll((es) => es.map((e) => [e.textContent ?? '', e.getAttribute('aria-label') ?? '', [...e.classList].join(' ')]));
        expect(stones.length).toBeGreaterThan(0);
        for (const [text, label, cls] of stones) {
          const letter = { red: 'R', blue: 'B', yellow: 'Y' }[cls!.replace('stone ', '').split(' ')[0] as 'red' | 'blue' | 'yellow'];
          expect(text).toMatch(new RegExp(`^${letter}\\d+$`));
          expect(label).not.toBe('');
        }
      }
      if (game === 'farkle') {
        // a die is drawn with its pips (shapes, as many as its face) and named by its face
        const dice = await page.locator('[data-testid="dice"] .die:not(.event)').evaluateAll((es) => es.map((e) => [e.getAttribute('data-face') ?? '', String(e.querySelectorAll('circle.pip').length), e.getAttribute('aria-label') ?? '']));
        expect(dice.length).toBeGreaterThan(0);
        for (const [face, pips, label] of dice) {
          expect(face).toMatch(/^[1-6]$/);
          expect(pips).toBe(face);
          expect(label).toContain(face);
        }
        await expect(page.getByTestId('event-die')).not.toHaveText('');
      }
      if (game === 'master') {
        for (const text of await page.locator('.hand button.card').allInnerTexts()) expect(text).toMatch(/\d/);
      }
      await shoot(page, `a11y-${game}-${size}.png`);
      await page.context().close();
    });
  }
}

/** Presses Tab until the focused element matches `selector` (keyboard only); false when
 * a whole round of the page found none. */
async function tabTo(page: Page, selector: string, max = 120): Promise<boolean> {
  for (let i = 0; i < max; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return true;
    await page.keyboard.press('Tab');
  }
  return false;
}

test('a whole Dragon Master game against a bot with the keyboard alone', async ({ browser }) => {
  const page = await open(browser, 'desktop');
  await page.goto('/');
  expect(await tabTo(page, '[data-testid="quick-master"]')).toBe(true);
  await page.keyboard.press('Enter');
  const master = page.getByTestId('master');
  await expect(master).toBeVisible({ timeout: 20_000 });
  let moves = 0;
  for (let i = 0; i < 40 && (await page.getByTestId('end').count()) === 0; i++) {
    await expect.poll(async () => (await master.getAttribute('data-my-turn')) === 'true' || (await page.getByTestId('end').count()) > 0, { timeout: 30_000 }).toBe(true);
    if ((await page.getByTestId('end').count()) > 0) break;
    const placed = Number(await master.getAttribute('data-placed'));
    expect(await tabTo(page, '.hand button.card:not([disabled])')).toBe(true);
    await page.keyboard.press('Enter');
    expect(await tabTo(page, 'button.cell.legal:not([disabled])')).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(async () => Number(await master.getAttribute('data-placed'))).toBeGreaterThan(placed);
    moves += 1;
  }
  await expect(page.getByTestId('end')).toBeVisible({ timeout: 30_000 });
  expect(moves).toBe(8);
  await shoot(page, `a11y-master-keyboard-end.png`);
  await page.context().close();
});
