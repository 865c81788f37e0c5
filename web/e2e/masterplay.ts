// Playing Dragon Master through the UI and taking the end screen's rematch, shared by the
// specs that do it with two people (rematch.spec.ts, accounts.spec.ts).
import { expect, type Page } from '@playwright/test';

/** Plays one card if this page is to move: the first playable card on the first legal cell
 * (and the confirm step, where the "confirm final moves" setting asks for one). */
export async function playIfMyTurn(page: Page): Promise<boolean> {
  const master = page.getByTestId('master');
  if ((await master.count()) === 0 || (await master.getAttribute('data-my-turn')) !== 'true') return false;
  const placed = await master.getAttribute('data-placed');
  const round = await master.getAttribute('data-round');
  await page.locator('.hand button.card:not([disabled])').first().click();
  await page.locator('button.cell.legal:not([disabled])').first().click();
  const confirm = page.getByTestId('confirm-move');
  if ((await confirm.count()) > 0) await confirm.first().click();
  await expect.poll(async () => (await master.getAttribute('data-placed')) !== placed || (await master.getAttribute('data-round')) !== round || (await page.getByTestId('end').count()) > 0).toBe(true);
  return true;
}

/** The pages (two people, or one against a bot) play until the end screen shows on every
 * page; `between(i)` runs after each round of turns (a check mid-game). */
export async function playToEnd(pages: Page[], between?: (i: number) => Promise<void>): Promise<void> {
  for (let i = 0; i < 400 && (await pages[0]!.getByTestId('end').count()) === 0; i++) {
    let played = false;
    for (const p of pages) played = (await playIfMyTurn(p)) || played;
    if (!played) await pages[0]!.waitForTimeout(50);
    if (between) await between(i);
  }
  for (const p of pages) await expect(p.getByTestId('end')).toBeVisible();
}

/** The table id in a page's address. */
export function tableOf(page: Page): string {
  return /\/tables\/([^#/?]+)/.exec(page.url())![1]!;
}

/** "Play again" on the end screen: `offerer` offers, then each of `others` sees the offer and
 * accepts; `beforeAccept` runs while the offer stands (a screenshot, a spectator's check).
 * Returns the new table's id once every page in `all` (the players and whoever else watched)
 * is on it and sees it running. */
export async function rematch(
  offerer: Page,
  others: Page[],
  opts: { watchers?: Page[]; beforeAccept?: () => Promise<void> } = {},
): Promise<string> {
  const old = tableOf(offerer);
  await offerer.getByTestId('rematch-accept').click();
  await expect(offerer.getByTestId('rematch')).toHaveAttribute('data-state', 'offered');
  await expect(offerer.getByTestId('rematch-accept')).toHaveCount(0); // said yes already
  for (const p of others) {
    await expect(p.getByTestId('rematch')).toHaveAttribute('data-state', 'offered');
    await expect(p.getByTestId('rematch-accept')).toBeVisible();
    await expect(p.getByTestId('rematch-decline')).toBeVisible();
  }
  if (opts.beforeAccept) await opts.beforeAccept();
  for (const p of others) await p.getByTestId('rematch-accept').click();
  const all = [offerer, ...others, ...(opts.watchers ?? [])];
  for (const p of all) {
    await expect(p).not.toHaveURL(new RegExp(`/tables/${old}$`), { timeout: 15_000 });
    await expect(p.locator('.table-screen')).toHaveAttribute('data-status', 'running');
    await expect(p.getByTestId('master')).toBeVisible();
  }
  const next = tableOf(offerer);
  expect(next).not.toBe(old);
  for (const p of all) expect(tableOf(p)).toBe(next);
  return next;
}
