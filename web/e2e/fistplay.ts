// Playing Fist of Dragonstones through the UI, and the secrets scan of a Fist game's frames,
// shared by the specs that play Fist (fist.spec.ts, characters.spec.ts).
import { expect, type Page } from '@playwright/test';
import { objects } from './frames';

/** the power decision kinds met on screen, over the whole file (reported at the end) */
export const decisionsSeen = new Set<string>();

/** Makes this page's move if it has one: a bid (a random legal one, built with the steppers),
 * a Silver bid, or a power decision (a random choice). Returns whether it moved. */
export async function moveIfAsked(page: Page, rnd: () => number, keyboard = false): Promise<string | null> {
  const fist = page.getByTestId('fist');
  const kind = await fist.getAttribute('data-legal');
  if (kind === 'none' || kind === null) return null;
  // a sealed bid handed in shows its button disabled until the server's update arrives (and
  // the history may move on meanwhile with another seat's bid): nothing to do yet
  const submit = { bid: 'submit-bid', silver: 'submit-silver' }[kind];
  if (submit && !(await page.getByTestId(submit).isEnabled({ timeout: 5_000 }).catch(() => false))) return null;
  const history = await fist.getAttribute('data-history');
  if (kind === 'bid' && keyboard) {
    // keyboard only: one Fairy Gold more if allowed, then hand the bid in
    if (await page.getByTestId('more-fairy').isEnabled()) {
      await page.getByTestId('more-fairy').focus();
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('count-fairy')).toContainText(' 1 ');
    }
    await page.getByTestId('submit-bid').focus();
    await page.keyboard.press('Enter');
  } else if (kind === 'bid') {
    for (const c of ['fairy', 'common']) {
      const more = page.getByTestId(`more-${c}`);
      const n = Math.floor(rnd() * 3);
      for (let i = 0; i < n && (await more.isEnabled()); i++) await more.click();
    }
    if ((await page.getByTestId('bid-amulet').count()) && rnd() < 0.3) await page.getByTestId('bid-amulet').check();
    await page.getByTestId('submit-bid').click();
  } else if (kind === 'silver') {
    const more = page.getByTestId('more-silver');
    if (await more.isEnabled()) await more.click();
    await page.getByTestId('submit-silver').click();
  } else {
    const choices = page.getByTestId('choice');
    const n = await choices.count();
    // the power's question (decisions.ts), named by the decision kind the view asks
    const question = page.getByTestId('decision');
    await expect(question).toHaveAttribute('data-kind', /^[a-z_]+$/);
    expect(await question.innerText()).not.toMatch(/[{}]|^(fist|web)\./);
    decisionsSeen.add((await question.getAttribute('data-kind'))!);
    // every choice is labelled from the catalogues (a fist.choice.* message), not a raw code
    for (const text of await choices.allInnerTexts()) expect(text).not.toMatch(/^(fist|web)\.[a-z_.]+/);
    await choices.nth(Math.floor(rnd() * n)).click();
  }
  // the move shows once the server's update arrives (no optimistic updates)
  await expect.poll(async () => (await fist.getAttribute('data-history')) !== history || (await page.getByTestId('end').count()) > 0, { timeout: 20_000 }).toBe(true);
  return kind;
}

/** The oracle: the finished table's record; a view's history is the record with every bid not
 * yet revealed written `pN: sealed`, and the bids of one auction are revealed together; a
 * viewer gets only its own private events and screen. */
export function scanFist(record: { actions: string[] }, who: string, frames: unknown[], seat: number | null): void {
  expect(frames.length, who).toBeGreaterThan(5);
  let views = 0;
  for (const o of objects(frames)) {
    if (typeof o.to === 'number') expect(o.to, `${who} got another seat's private event`).toBe(seat);
    if (o.code === 'fist.bid.own' || o.code === 'fist.tiebreak.own') expect((o.params as { seat: number }).seat, who).toBe(seat);
    if ('private' in o && 'public' in o) {
      views += 1;
      expect(o.seat, who).toBe(seat);
      if (seat === null) expect(o.private, who).toBeNull();
      const history = (o.public as { history: string[] }).history;
      const sealed: boolean[] = [];
      history.forEach((h, i) => {
        const m = /^p(\d+): sealed$/.exec(h);
        if (m) {
          expect(record.actions[i]!, `${who}: a sealed entry is a bid`).toMatch(new RegExp(`^p${m[1]}: (bid|silver) `));
          sealed.push(true);
        } else {
          expect(h, `${who} history ${i}`).toBe(record.actions[i]);
          sealed.push(false);
        }
      });
      // a run of bids is all sealed or all open: no bid is seen before the others are in
      for (let i = 1; i < history.length; i++) {
        // the kind of entry i in the record: a sealed bid or a Silver tie-break bid
        const kind = (j: number) => /^p\d+: (bid|silver) /.exec(record.actions[j] ?? '')?.[1];
        if (kind(i) && kind(i) === kind(i - 1)) expect(sealed[i], `${who}: half-open sealed bids at ${i}`).toBe(sealed[i - 1]);
      }
    }
  }
  expect(views, who).toBeGreaterThan(3);
}
