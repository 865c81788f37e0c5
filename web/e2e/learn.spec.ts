// Each tutorial completes in the browser (issue 16): the learner reads each text on, and
// answers each question by playing on the game's own screen the move the step asks for; one
// wrong move is explained and nothing changes. Fist in German on a phone, Master and Farkle in
// English. The move to make is read from the server's answer (`expected`), and made with the
// screen's own controls. Once, in the Master tutorial, the learner asks for a hint (issue 16):
// the strongest bot's judgement of every move on offer, each in words (no notation);
// asking is no move. The browser's introduction tells nothing of typing, and names the learner
// as the game's screens do.
import { expect, test, type Page, type Response } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { shoot } from './shoot';
import { noConfirm } from './settings';

const url = (): string =>
  process.env.DRAGONLAIR_E2E_URL ?? (JSON.parse(readFileSync(resolve(tmpdir(), 'dragonlair-e2e-server.json'), 'utf-8')) as { url: string }).url;

interface Answer {
  progress: (string | null)[];
  verdict: { kind: string } | null;
  step: { kind: string; expected?: string[]; legal?: string[] } | null;
  done: boolean;
}

const isStep = (r: Response) => r.url().includes('/api/tutorials/') && !r.url().endsWith('/hint') && r.request().method() === 'POST';
const isHint = (r: Response) => r.url().includes('/api/tutorials/') && r.url().endsWith('/hint');

/** Makes ``move`` with the game's controls. */
async function play(page: Page, game: string, move: string): Promise<void> {
  const words = move.split(' ');
  if (game === 'master') {
    await page.locator(`.hand button.card[data-card="${words[1]}"]`).click();
    await page.locator(`button.cell.legal[data-cell="${words[2]}"]`).click();
  } else if (game === 'fist' && words[0] === 'bid') {
    const fairy = Number(words[1]!.slice(1));
    const common = Number(words[2]!.slice(1));
    for (let i = 0; i < fairy; i++) await page.getByTestId('more-fairy').click();
    for (let i = 0; i < common; i++) await page.getByTestId('more-common').click();
    if (words.includes('black')) await page.getByTestId('bid-black').check();
    if (words.includes('amulet')) await page.getByTestId('bid-amulet').check();
    await page.getByTestId('submit-bid').click();
  } else if (game === 'fist' && words[0] === 'silver') {
    for (let i = 0; i < Number(words[1]); i++) await page.getByTestId('more-silver').click();
    await page.getByTestId('submit-silver').click();
  } else {
    await page.locator(`[data-action="${move}"]`).first().click();
  }
}

for (const [game, locale, phone] of [['fist', 'de-DE', true], ['master', 'en-US', false], ['farkle', 'en-US', false]] as const) {
  test(`the ${game} tutorial to its end, in ${locale}`, async ({ browser }) => {
    const ctx = await browser.newContext({ baseURL: url(), locale, viewport: phone ? { width: 360, height: 740 } : { width: 1200, height: 900 } });
    await noConfirm(ctx); // each move sent on its first click (e2e/settings.ts)
    const page = await ctx.newPage();
    const answerOf = async (r: Promise<Response>): Promise<Answer> => (await (await r).json()) as Answer;
    await page.goto('/');
    const first = page.waitForResponse(isStep);
    await page.getByTestId(`learn-${game}`).click();
    let answer = await answerOf(first);
    const root = page.getByTestId('learn');
    const intro = (await page.getByTestId('learn-intro').innerText()).trim();
    expect(intro.length).toBeGreaterThan(20);
    expect(intro).not.toMatch(/\b(type|tippe|press enter|drück)/i);
    // the learner has a name the screens' third-person lines read right with, not "You"
    const learner = /(?:you are|heißt du) ([^.\s]+)\./i.exec(intro)?.[1];
    expect(learner).toBeTruthy();
    let wrongShown = false;
    let hinted = false;
    let asked = 0;
    for (let i = 0; i < 200 && !answer.done; i++) {
      const step = answer.step!;
      if (step.kind === 'say') {
        const next = page.waitForResponse(isStep);
        await page.getByTestId('learn-continue').click();
        answer = await answerOf(next);
        continue;
      }
      if (asked === 0) {
        await expect(root).toContainText(learner!);
        expect(await root.innerText()).not.toMatch(/\bYou's\b|\bYou holds\b|\bDu hält\b|\bvon Du\b/);
      }
      const other = (step.legal ?? []).find((m) => !(step.expected ?? []).includes(m) && !m.startsWith('bid') && !m.startsWith('silver'));
      if (!wrongShown && other && game !== 'master') {
        // a legal move the step does not teach: explained, nothing changes
        const wrong = page.waitForResponse(isStep);
        await play(page, game, other);
        const said = await answerOf(wrong);
        expect(said.verdict?.kind).toBe('wrong');
        expect(said.progress).toEqual(answer.progress);
        await expect(page.getByTestId('learn-wrong')).toBeVisible();
        expect((await page.getByTestId('learn-wrong').innerText()).trim().length).toBeGreaterThan(10);
        wrongShown = true;
      }
      if (game === 'master' && !hinted) {
        // the hint: every move on offer valued, the bot's choice first, in words
        const asked = page.waitForResponse(isHint);
        await page.getByTestId('ask-hint').focus();
        await page.keyboard.press('Enter');
        expect((await asked).status()).toBe(200);
        await expect(page.getByTestId('hint-best')).toBeVisible();
        await expect(page.getByTestId('hint-option')).toHaveCount(step.legal!.length);
        const offered = await page.getByTestId('hint-option').evaluateAll((rs) => rs.map((r) => r.getAttribute('data-action')));
        expect(new Set(offered)).toEqual(new Set(step.legal));
        await expect(page.locator('[data-testid=hint-option].best')).toHaveCount(1);
        // in words only (issue 25): no notation on a player's screen
        for (const text of [await page.getByTestId('hint-best').innerText(), ...(await page.getByTestId('hint-option').allInnerTexts())])
          expect(text).not.toMatch(/place \w+ [a-z]\d/);
        await shoot(page, 'learn-hint.png');
        hinted = true;
      }
      const next = page.waitForResponse(isStep);
      await play(page, game, step.expected![0]!);
      answer = await answerOf(next);
      expect(answer.verdict?.kind).toBe('ok');
      asked += 1;
      if (asked === 2) await shoot(page, `learn-${game}.png`);
    }
    await expect(root).toHaveAttribute('data-done', 'true');
    await expect(page.getByTestId('learn-done')).toBeVisible();
    expect(asked).toBeGreaterThan(5);
    if (game !== 'master') expect(wrongShown).toBe(true);
    else expect(hinted).toBe(true);
    await ctx.close();
  });
}
