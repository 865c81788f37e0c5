// Puzzles (issue 27): a guest fails a shipped puzzle on the game's board (the proof:
// every option with its value), another solves it; the must-show picture of a solved puzzle,
// at 1280 and at 360 pixels. The answer is read from the shipped puzzle's file on disk
// (dragonlair/puzzles/data): the server never sends it before an answer.
import { expect, test, type Browser, type Page } from '@playwright/test';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { shoot } from './shoot';
import { noConfirm } from './settings';

const here = dirname(fileURLToPath(import.meta.url));
const url = (): string =>
  process.env.DRAGONLAIR_E2E_URL ?? (JSON.parse(readFileSync(resolve(tmpdir(), 'dragonlair-e2e-server.json'), 'utf-8')) as { url: string }).url;

interface Shipped { id: string; game: string; legal: string[]; solution: string[]; options: unknown[] }

/** A shipped puzzle with a wrong option to play: a Dragon Master one that places a card
 * (the board's clicks) where the set has one, else a Dragon Farkle one (its buttons). */
function shipped(): Shipped {
  // DRAGONLAIR_PUZZLES_DATA: another folder of puzzles the server was given (a local run)
  const root = process.env.DRAGONLAIR_PUZZLES_DATA ?? resolve(here, '../../dragonlair/puzzles/data');
  for (const game of ['master', 'farkle']) {
    const dir = resolve(root, game);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).sort()) {
      const p = JSON.parse(readFileSync(resolve(dir, name), 'utf-8')) as Shipped;
      const clickable = game === 'master' ? p.solution[0]?.startsWith('place ') : true;
      if (clickable && p.legal.some((a) => !p.solution.includes(a))) return p;
    }
  }
  throw new Error('no shipped Master or Farkle puzzle');
}

async function open(browser: Browser, id: string): Promise<Page> {
  const ctx = await browser.newContext({ baseURL: url(), locale: 'en', viewport: { width: 1280, height: 900 } });
  await noConfirm(ctx);
  const page = await ctx.newPage();
  await page.goto(`/puzzles/${id}`);
  await expect(page.getByTestId('puzzles')).toHaveAttribute('data-state', 'asked');
  return page;
}

/** Play the action on the game's screen: Master places a card ("place egg d2": the card in
 * the hand, then the cell); Farkle presses the button of the action. */
async function play(page: Page, game: string, action: string): Promise<void> {
  if (game === 'master') {
    const [, card, cell] = action.split(' ');
    await page.locator(`.hand button.card[data-card="${card}"]`).click();
    await page.locator(`button.cell.legal[data-cell="${cell}"]`).click();
  } else {
    await page.locator(`.board button[data-action="${action}"]`).click();
  }
}

test('a guest fails a puzzle and sees every value; another solves it', async ({ browser }) => {
  const p = shipped();
  const wrong = p.legal.find((a) => !p.solution.includes(a))!;

  const first = await open(browser, p.id);
  await play(first, p.game, wrong);
  await expect(first.getByTestId('puzzles')).toHaveAttribute('data-state', 'failed');
  await expect(first.getByTestId('puzzle-option')).toHaveCount(p.options.length);
  await expect(first.locator(`[data-testid="puzzle-option"][data-action="${wrong}"]`)).toHaveClass(/chosen/);
  await expect(first.locator(`[data-testid="puzzle-option"][data-action="${p.solution[0]}"]`)).toHaveClass(/best/);
  await first.context().close();

  const second = await open(browser, p.id);
  await play(second, p.game, p.solution[0]!);
  await expect(second.getByTestId('puzzles')).toHaveAttribute('data-state', 'solved');
  await expect(second.getByTestId('puzzle-verdict')).toBeVisible();
  await shoot(second, 'puzzle-solved.png');
  await second.setViewportSize({ width: 360, height: 740 });
  await shoot(second, 'puzzle-solved-360.png');
  await second.getByTestId('puzzle-next').click();
  await expect(second.getByTestId('puzzles')).toHaveAttribute('data-state', 'asked');
  await second.context().close();
});
