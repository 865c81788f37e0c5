// Rematch and the spectators' chat (issue 22) in two browsers and a spectator's: two people
// finish a Dragon Master game; meanwhile a spectator writes in the spectators' chat, which the
// players see only after the end; then one offers "Play again" from the end screen, the
// other accepts, and both (and the spectator) are taken to the new table, where the two have
// swapped seats (docs/server.md, "Rematch"). Screenshot: rematch-offer.png.
import { expect, test, type Browser, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { playToEnd, rematch } from './masterplay';
import { shoot } from './shoot';

const url = (): string =>
  process.env.DRAGONLAIR_E2E_URL ?? (JSON.parse(readFileSync(resolve(tmpdir(), 'dragonlair-e2e-server.json'), 'utf-8')) as { url: string }).url;

async function open(browser: Browser): Promise<Page> {
  const ctx = await browser.newContext({ baseURL: url(), locale: 'en-US', viewport: { width: 1200, height: 900 } });
  return ctx.newPage();
}

const SECRET = 'spectator-line-9c1e';

test('a Master game, the spectators chat, then "Play again" from the end screen', async ({ browser }) => {
  const a = await open(browser);
  const b = await open(browser);
  const s = await open(browser);

  await a.goto('/');
  await a.locator('#game').selectOption('master');
  await a.locator('#seat-1').selectOption('invite');
  await a.getByTestId('create').click();
  const invite = await a.getByTestId('invite-1').inputValue();
  const tableId = /\/tables\/([^#/]+)/.exec(invite)![1]!;
  await b.goto(invite);
  await expect(b.locator('.table-screen')).toHaveAttribute('data-seat', '1');
  // (the lobby shows a seat taken from the table's next update; reading it again is enough here)
  if (!(await a.getByTestId('start').isEnabled())) await a.reload();
  await expect(a.getByTestId('start')).toBeEnabled({ timeout: 10_000 });
  await a.getByTestId('start').click();
  await expect(a.getByTestId('master')).toBeVisible();
  await expect(b.getByTestId('master')).toBeVisible();

  // a spectator writes: the spectators' channel, which the players do not see yet
  await s.goto(`/tables/${tableId}`);
  await expect(s.getByTestId('master')).toBeVisible();
  await expect(s.locator('#chat-spectators-h')).toBeVisible();
  await s.locator('#chat-input').fill(SECRET);
  await s.locator('#chat-input').press('Enter');
  await expect(s.getByTestId('chat-spectators')).toContainText(SECRET);

  await playToEnd([a, b], async (i) => {
    if (i !== 2) return;
    for (const p of [a, b]) {
      await expect(p.getByTestId('chat-spectators')).toHaveCount(0);
      expect(await p.content()).not.toContain(SECRET);
    }
  });
  for (const p of [a, b, s]) await expect(p.getByTestId('end')).toBeVisible();
  // after the end the players read the spectators' chat
  for (const p of [a, b]) await expect(p.getByTestId('chat-spectators')).toContainText(SECRET);

  // Ann offers a rematch; Bob (and the spectator) see the offer live; Bob accepts, and
  // everyone goes to the new table (e2e/masterplay.ts)
  const next = await rematch(a, [b], {
    watchers: [s],
    beforeAccept: async () => {
      await expect(s.getByTestId('rematch-status')).toBeVisible();
      await b.getByTestId('rematch').scrollIntoViewIfNeeded();
      await shoot(b, 'rematch-offer.png');
    },
  });
  expect(next).not.toBe(tableId);
  // the two have swapped seats (M: who starts swaps)
  await expect(b.locator('.table-screen')).toHaveAttribute('data-seat', '0');
  await expect(a.locator('.table-screen')).toHaveAttribute('data-seat', '1');
  await expect(s.locator('.table-screen')).toHaveAttribute('data-seat', 'spectator');
});
