// "Nobody is stuck" (issue 22): a player who closes the tab is replaced by the table's bot
// after the table's away time (shortened here: the e2e server runs with
// DRAGONLAIR_AWAY_SECONDS_MIN=1, e2e/global-setup.ts), the other player sees who is
// connected, then the countdown, and finishes the game against the bot. Screenshots of the
// table with two players and their presence, and of the countdown, go to
// test-results/screenshots/.
import { expect, test, type Browser, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { noConfirm } from './settings';
import { shoot } from './shoot';

const url = (): string =>
  process.env.DRAGONLAIR_E2E_URL ?? (JSON.parse(readFileSync(resolve(tmpdir(), 'dragonlair-e2e-server.json'), 'utf-8')) as { url: string }).url;

async function open(browser: Browser, locale: string) {
  const ctx = await browser.newContext({ baseURL: url(), locale, viewport: { width: 1200, height: 900 } });
  await noConfirm(ctx);
  return { ctx, page: await ctx.newPage() };
}

/** Plays one card if this page is to move (as e2e/master.spec.ts). */
async function playIfMyTurn(page: Page): Promise<boolean> {
  const master = page.getByTestId('master');
  if ((await master.getAttribute('data-my-turn')) !== 'true') return false;
  const placed = Number(await master.getAttribute('data-placed'));
  const round = await master.getAttribute('data-round');
  await page.locator('.hand button.card:not([disabled])').first().click();
  await page.locator('button.cell.legal:not([disabled])').first().click();
  await expect.poll(async () => (await master.getAttribute('data-placed')) !== String(placed) || (await master.getAttribute('data-round')) !== round || (await page.getByTestId('end').count()) > 0).toBe(true);
  return true;
}

test('a player who closes the tab is replaced by a bot after the away time; the other finishes', async ({ browser }) => {
  const a = await open(browser, 'en-US');
  const b = await open(browser, 'de-DE');

  // the create form offers the away policy (default: a bot after 3 minutes)
  await a.page.goto('/');
  await a.page.locator('#game').selectOption('master');
  await expect(a.page.getByTestId('away')).toHaveValue('3');
  await expect(a.page.getByTestId('away').locator('option')).toHaveText([
    'a bot takes the seat after 1 minute', 'a bot takes the seat after 3 minutes',
    'a bot takes the seat after 5 minutes', 'a bot takes the seat after 10 minutes', 'wait for them']);

  // the table itself with a test-short away time (the form offers minutes)
  const created = await a.page.request.post('/api/tables', {
    headers: { Origin: url() },
    data: { game: 'master', seats: [{ kind: 'me' }, { kind: 'invite' }], away: { kind: 'bot', seconds: 4 } },
  });
  expect(created.status()).toBe(201);
  const table = (await created.json()) as { id: string; away: unknown; invites: { url: string }[] };
  expect(table.away).toEqual({ kind: 'bot', seconds: 4 });
  await b.page.goto(table.invites[0]!.url);
  await a.page.goto(`/tables/${table.id}`);
  await expect(a.page.getByTestId('start')).toBeEnabled({ timeout: 10_000 });
  await a.page.getByTestId('start').click();
  await expect(a.page.getByTestId('master')).toBeVisible();
  await expect(b.page.getByTestId('master')).toBeVisible();

  // both connected, each seen by the other
  for (const p of [a.page, b.page]) {
    await expect(p.getByTestId('presence-0')).toHaveAttribute('data-connected', 'true');
    await expect(p.getByTestId('presence-1')).toHaveAttribute('data-connected', 'true');
  }
  await expect(b.page.getByTestId('away-policy')).toContainText('Bot');
  await shoot(a.page, 'presence-two-players.png');

  // the second player closes the tab: the first sees the countdown, then the bot
  await b.ctx.close();
  await expect(a.page.getByTestId('presence-1')).toHaveAttribute('data-connected', 'false');
  await expect(a.page.getByTestId('away-countdown-1')).toContainText('a bot takes the seat in');
  await shoot(a.page, 'presence-away-countdown.png');
  await expect(a.page.getByTestId('presence-1')).toHaveCount(0, { timeout: 20_000 });

  // the first plays on against the bot to the end (Master is short)
  for (let i = 0; i < 400 && (await a.page.getByTestId('end').count()) === 0; i++) {
    if (!(await playIfMyTurn(a.page))) await a.page.waitForTimeout(50);
  }
  await expect(a.page.getByTestId('end')).toBeVisible();
  const record = (await (await a.page.request.get(`/api/tables/${table.id}/record`)).json()) as { meta: { takeovers: { seat: number; reason: string }[] } };
  expect(record.meta.takeovers.map((x) => [x.seat, x.reason])).toEqual([[1, 'away']]);
  await a.ctx.close();
});
