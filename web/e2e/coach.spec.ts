// Hints and analysis in the browser (issue 16): at a friendly Dragon Farkle table against the
// optimal bot, the hint names the move that bot would make (its row marked best); a rated
// table offers no hint; after the game the replay's analysis lists the decisions that lost
// the most expected soldiers, with their figures, each a link to its step.
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { shoot } from './shoot';
import { noConfirm } from './settings';

const url = (): string =>
  process.env.DRAGONLAIR_E2E_URL ?? (JSON.parse(readFileSync(resolve(tmpdir(), 'dragonlair-e2e-server.json'), 'utf-8')) as { url: string }).url;

/** One move of a timid player: bank whatever is pending as soon as it may (with five dice
 * left to roll, banking 50 soldiers throws away what rolling on is worth: the analysis has
 * mistakes to find), else keep the first scoring choice, else recruit. */
async function timidMove(page: Page): Promise<boolean> {
  const root = page.getByTestId('farkle');
  if ((await root.getAttribute('data-my-turn')) !== 'true') return false;
  const history = await root.getAttribute('data-history');
  const actions = await page.getByTestId('action').evaluateAll((bs) => bs.map((b) => b.getAttribute('data-action') ?? ''));
  const keeps = page.getByTestId('keep');
  const chosen = actions.includes('bank') ? 'bank'
    : (await keeps.count()) > 0 ? (await keeps.first().getAttribute('data-action'))!
      : actions.find((a) => a === 'recruit') ?? actions[0]!;
  await page.locator(`[data-action="${chosen}"]`).first().click();
  await expect.poll(async () => (await root.getAttribute('data-history')) !== history || (await page.getByTestId('end').count()) > 0, { timeout: 20_000 }).toBe(true);
  return true;
}

async function create(page: Page, rated: boolean): Promise<string> {
  const r = await page.request.post('/api/tables', {
    // 12 turns: with 6 a player who farkles on every turn of theirs had no decision that cost (a flake)
    data: { game: 'farkle', options: { max_turns: 12 }, rated, seats: [{ kind: 'me' }, { kind: 'bot', bot: 'optimal' }] },
  });
  expect(r.status()).toBe(201);
  const id = ((await r.json()) as { id: string }).id;
  expect((await page.request.post(`/api/tables/${id}/start`)).status()).toBe(200);
  return id;
}

test('a hint at a friendly Farkle table, none at a rated one, and the analysis after the game', async ({ browser }) => {
  const ctx = await browser.newContext({ baseURL: url(), locale: 'en-US' });
  await noConfirm(ctx); // each move sent on its first click (e2e/settings.ts)
  const page = await ctx.newPage();
  await page.goto('/');
  await expect(page.getByTestId('quick-farkle')).toBeVisible(); // signed in as a guest by now

  // rated: no hint on offer
  const rated = await create(page, true);
  await page.goto(`/tables/${rated}`);
  await expect(page.getByTestId('farkle')).toHaveAttribute('data-my-turn', 'true', { timeout: 15_000 });
  await expect(page.getByTestId('hint')).toHaveCount(0);

  // friendly: ask, and the best row is the bot's choice (the server checks it is from this view)
  const id = await create(page, false);
  await page.goto(`/tables/${id}`);
  await expect(page.getByTestId('farkle')).toHaveAttribute('data-my-turn', 'true', { timeout: 15_000 });
  await page.getByTestId('ask-hint').click();
  await expect(page.getByTestId('hint-best')).toBeVisible({ timeout: 20_000 });
  const best = page.locator('[data-testid=hint-option].best');
  await expect(best).toHaveCount(1);
  const offered = await page.locator('[data-action]').evaluateAll((bs) => bs.map((b) => b.getAttribute('data-action')));
  const hinted = await page.getByTestId('hint-option').evaluateAll((rs) => rs.map((r) => r.getAttribute('data-action')));
  expect(new Set(hinted)).toEqual(new Set(offered.filter((a) => hinted.includes(a))));
  expect(hinted.every((a) => offered.includes(a))).toBe(true); // only the moves on offer
  await shoot(page, 'farkle-hint.png');

  for (let i = 0; i < 400 && (await page.getByTestId('end').count()) === 0; i++) {
    if (!(await timidMove(page))) await page.waitForTimeout(50);
  }
  await expect(page.getByTestId('end')).toBeVisible();

  // the analysis in the replay
  await page.goto(`/tables/${id}/replay`);
  await page.getByTestId('analyse').click();
  await expect(page.getByTestId('analysis-summary')).toBeVisible({ timeout: 30_000 });
  // the timid banks cost expected soldiers (or, near the end, win chance): they are among the
  // mistakes, each with its figure, soldiers first
  const rows = page.getByTestId('mistake');
  expect(await rows.count()).toBeGreaterThan(0);
  await expect(rows.first()).toContainText(/expected soldiers|win chance/);
  expect(Number(/([\d.]+)( %)? (expected soldiers|win chance)/.exec(await rows.first().innerText())![1])).toBeGreaterThan(0);
  const step = Number(await rows.first().locator('button').innerText());
  await rows.first().locator('button').click();
  await expect(page.getByTestId('replay')).toHaveAttribute('data-at', String(step));
  await shoot(page, 'farkle-analysis.png');
  await ctx.close();
});
