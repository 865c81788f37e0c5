// Accounts in the browser and names everywhere (issue 22): two people sign up through the
// account menu in two browser contexts, name themselves, and play a Dragon Master game by
// invite link; their chosen names (never "guest-…", never "p0" or "Seat 0") are on the table
// screen, in the log, in the chat, on the end screen and in every WebSocket frame that names a
// seat. A guest who plays a game and then signs up finds it in their profile.
// Screenshots (e2e/shoot.ts) go to test-results/screenshots/: account-menu.png (the sign-up
// form open), accounts-table-named.png (a table with two named players).
//
// After the game both take "Play again" on the end screen (e2e/masterplay.ts) and play the
// rematch to its end, seats swapped, their names again on every screen and in every frame.
import { expect, test, type Browser, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { objects, recordFrames } from './frames';
import { playIfMyTurn, playToEnd, rematch } from './masterplay';
import { noConfirm } from './settings';
import { shoot } from './shoot';

const url = (): string =>
  process.env.DRAGONLAIR_E2E_URL ?? (JSON.parse(readFileSync(resolve(tmpdir(), 'dragonlair-e2e-server.json'), 'utf-8')) as { url: string }).url;

/** usernames unique to this run (the server's database outlives a retried test) */
const run = Date.now().toString(36).slice(-5);

interface Person {
  page: Page;
  frames: unknown[];
  close: () => Promise<void>;
}

async function person(browser: Browser, locale = 'en-US'): Promise<Person> {
  const ctx = await browser.newContext({ baseURL: url(), locale, viewport: { width: 1200, height: 900 } });
  await noConfirm(ctx); // each move sent on its first click (e2e/settings.ts)
  const page = await ctx.newPage();
  return { page, frames: recordFrames(page), close: () => ctx.close() };
}

async function openMenu(page: Page): Promise<void> {
  if ((await page.getByTestId('account-menu').count()) === 0) await page.getByTestId('account-button').click();
  await expect(page.getByTestId('account-menu')).toBeVisible();
}

/** Signs up through the account menu; ``shot`` saves the filled form before it is sent. */
async function signUp(page: Page, username: string, displayName: string | null, shot?: string): Promise<void> {
  await openMenu(page);
  await page.getByTestId('account-signup').click();
  const form = page.getByTestId('signup-form');
  await form.locator('input[name=username]').fill(username);
  await form.locator('input[name=password]').fill('correct horse 9');
  if (displayName !== null) await form.locator('input[name=display_name]').fill(displayName);
  if (shot) await shoot(page, shot);
  await form.locator('button[type=submit]').click();
  await expect(page.getByTestId('account-notice')).toBeVisible();
  if (displayName !== null) await expect(page.getByTestId('account-name')).toHaveText(displayName);
  await expect(page.getByTestId('account-button')).not.toContainText('guest');
  await page.getByTestId('account-button').click(); // closes the menu
  await expect(page.getByTestId('account-menu')).toHaveCount(0);
}

async function rename(page: Page, displayName: string): Promise<void> {
  await openMenu(page);
  await page.getByTestId('account-rename').click();
  const form = page.getByTestId('rename-form');
  await form.locator('input[name=display_name]').fill(displayName);
  await form.locator('button[type=submit]').click();
  await expect(page.getByTestId('account-name')).toHaveText(displayName);
  await page.getByTestId('account-button').click(); // closes the menu
  await expect(page.getByTestId('account-menu')).toHaveCount(0);
}

/** ``host`` creates a Dragon Master table with an invite at seat 1; ``guest`` follows the
 * link; the host starts. Returns the table id. */
async function inviteTable(host: Page, invited: Page): Promise<string> {
  await host.goto('/');
  await host.locator('#game').selectOption('master');
  await host.locator('#seat-1').selectOption('invite');
  await host.getByTestId('create').click();
  const invite = await host.getByTestId('invite-1').inputValue();
  const tableId = /\/tables\/([^#/]+)/.exec(invite)![1]!;
  await invited.goto(invite);
  await expect(host.getByTestId('seat-1')).not.toContainText('Invite', { timeout: 10_000 });
  await host.getByTestId('start').click();
  await expect(host.getByTestId('master')).toBeVisible();
  await expect(invited.getByTestId('master')).toBeVisible();
  return tableId;
}

/** What no screen may show: an internal guest handle, a seat counted from 0. */
async function noHandlesOrZeroSeats(page: Page): Promise<void> {
  const text = await page.locator('body').innerText();
  expect(text).not.toMatch(/guest-[0-9a-f]/);
  expect(text).not.toMatch(/\bp[0-9]\b/);
  expect(text).not.toMatch(/\b(Seat|Platz) 0\b/);
}

/** At the end of a game: the end screen and the log of both pages name both people, no
 * screen shows a handle or a seat 0, and the table's REST answer names the seats in order. */
async function namedEverywhere(a: Person, b: Person, tableId: string, names: string[]): Promise<void> {
  for (const p of [a.page, b.page]) {
    const end = p.getByTestId('end');
    for (const n of names) await expect(end).toContainText(n);
    // the log names people by their names ("Ann the Bold starts (drawn by lot)")
    await expect(p.locator('.log')).toContainText(new RegExp(names.join('|')));
    await noHandlesOrZeroSeats(p);
  }
  // the table's answer, as the lobby and replays read it
  const table = (await (await a.page.request.get(`/api/tables/${tableId}`)).json()) as { seats: { name: string }[] };
  expect(table.seats.map((s) => s.name)).toEqual(names);
}

/** The frames: every seat a person holds is named by their chosen name, in the seat order of
 * the table the frame came from (the table of the page's latest `welcome`); each table's
 * names are met in some frame; no frame carries a guest handle. */
function namedInFrames(people: Person[], tables: Record<string, string[]>): void {
  const met: Record<string, Set<string>> = {};
  for (const { frames } of people) {
    let table: string | null = null;
    for (const f of frames) {
      const msg = f as { type?: unknown; table?: { id?: unknown } };
      if (msg.type === 'welcome' && typeof msg.table?.id === 'string') table = msg.table.id;
      if (table === null || !(table in tables)) continue;
      const names = tables[table]!;
      for (const o of objects(f)) {
        const seats = o.seats as { kind?: unknown; name?: unknown }[] | undefined;
        if (!Array.isArray(seats) || seats.length !== names.length) continue;
        seats.forEach((s, i) => {
          if (s.kind !== 'human') return;
          expect(s.name, `table ${table}, seat ${i + 1}`).toBe(names[i]);
          (met[table!] ??= new Set()).add(String(s.name));
        });
      }
    }
    expect(JSON.stringify(frames)).not.toMatch(/guest-[0-9a-f]/);
  }
  for (const [id, names] of Object.entries(tables)) expect([...(met[id] ?? [])].sort(), `table ${id}`).toEqual([...names].sort());
}

test('two people sign up in the menu, name themselves, play Master by invite and a rematch: their names everywhere', async ({ browser }) => {
  const ann = await person(browser);
  const bob = await person(browser, 'de-DE');
  const annName = 'Ann the Bold';
  const bobName = 'Bob Drachenherz';

  await ann.page.goto('/');
  await signUp(ann.page, `ann_${run}`, annName, 'account-menu.png');
  await bob.page.goto('/');
  await signUp(bob.page, `bob_${run}`, null);
  await rename(bob.page, bobName);

  const tableId = await inviteTable(ann.page, bob.page);
  for (const p of [ann.page, bob.page]) {
    // each seat's hand size is told by name
    await expect(p.locator('.master .hs').nth(0)).toContainText(annName);
    await expect(p.locator('.master .hs').nth(1)).toContainText(bobName);
  }
  // the chat names who wrote
  await ann.page.locator('#chat-input').fill('good luck!');
  await ann.page.locator('#chat-input').press('Enter');
  await expect(bob.page.locator('.chat li').filter({ hasText: 'good luck!' })).toContainText(`${annName}: good luck!`);
  if (!(await playIfMyTurn(ann.page))) await playIfMyTurn(bob.page);
  await shoot(ann.page, 'accounts-table-named.png');

  await playToEnd([ann.page, bob.page]);
  const seated = [annName, bobName];
  await namedEverywhere(ann, bob, tableId, seated);

  // the rematch: Bob says "Play again" on the end screen, Ann accepts; both go to the new
  // table, where they have swapped seats (docs/server.md, "Rematch") and keep their names
  const next = await rematch(bob.page, [ann.page]);
  const swapped = [bobName, annName];
  await expect(bob.page.locator('.table-screen')).toHaveAttribute('data-seat', '0');
  await expect(ann.page.locator('.table-screen')).toHaveAttribute('data-seat', '1');
  for (const p of [ann.page, bob.page]) {
    await expect(p.locator('.master .hs').nth(0)).toContainText(bobName);
    await expect(p.locator('.master .hs').nth(1)).toContainText(annName);
    await noHandlesOrZeroSeats(p);
  }
  await playToEnd([ann.page, bob.page]);
  await namedEverywhere(ann, bob, next, swapped);
  // every frame of both tables names each person's seat by their name: the first table's
  // [Ann, Bob], the rematch's [Bob, Ann]
  namedInFrames([ann, bob], { [tableId]: seated, [next]: swapped });

  await ann.close();
  await bob.close();
});

test('a guest who plays a game and then signs up keeps it in their profile', async ({ browser }) => {
  const carol = await person(browser);
  const { page } = carol;
  await page.goto('/');
  await page.locator('#game').selectOption('master');
  await page.locator('#seat-1').selectOption('bot');
  await page.locator('#bot-1').selectOption('random');
  await page.getByTestId('create').click();
  await page.getByTestId('start').click();
  await expect(page.getByTestId('master')).toBeVisible();
  // a guest now: a friendly generated name, marked as a guest, never the handle
  const name = (await page.getByTestId('account-name').textContent())!.trim();
  expect(name).toMatch(/^\p{Lu}\p{L}+ \p{Lu}\p{L}+$/u);
  await expect(page.getByTestId('account-button')).toContainText('guest');
  await expect(page.locator('.master .hs').nth(0)).toContainText(name);
  const tableId = /\/tables\/([^#/?]+)/.exec(page.url())![1]!;
  await playToEnd([page]);
  await noHandlesOrZeroSeats(page);

  // the guest's own profile (from the menu): addressed without the handle, the game in it
  const profile = page.getByTestId('profile');
  await openMenu(page);
  await page.getByTestId('account-profile').click();
  await expect(page).toHaveURL(/\/users\/@\d+$/);
  await expect(profile.locator(`a[href="/tables/${tableId}/replay"]`)).toBeVisible();

  const username = `carol_${run}`;
  await signUp(page, username, null);
  await expect(page.getByTestId('account-name')).toHaveText(name); // the name stays
  await openMenu(page);
  await page.getByTestId('account-profile').click();
  await expect(page).toHaveURL(new RegExp(`/users/${username}$`));
  await expect(profile.getByRole('heading', { level: 1 })).toHaveText(name);
  await expect(profile).toContainText(username); // a member now
  await expect(profile.locator(`a[href="/tables/${tableId}/replay"]`)).toBeVisible();
  await noHandlesOrZeroSeats(page);
  // on a phone the open menu fits the window
  await page.setViewportSize({ width: 360, height: 740 });
  await openMenu(page);
  await expect(page.getByTestId('account-menu')).toBeInViewport({ ratio: 1 });
  await shoot(page, 'account-menu-phone.png');
  // logging out ends the session; this browser's push subscription is dropped first (none
  // here: the test server sends no push), which never holds it up (lib/push.ts, dropPush)
  await page.getByTestId('account-logout').click();
  await expect(page.getByTestId('account-name')).toHaveCount(0);
  expect((await page.request.get('/api/me')).status()).toBe(401);
  await carol.close();
});
