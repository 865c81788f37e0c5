// Issue 22, Web Push in the browser: the service worker (public/sw.js, served at /sw.js with
// the whole client as its scope) shows the turn alert a push brings (delivered here through
// Chromium's DevTools protocol, as a push service would), one per table, and ignores a push
// that is no turn alert; Settings says when the server sends no push (the test server has no
// VAPID key) and offers no switch then. The server's side, with a real encrypted push to a
// local receiver, is tests/server/test_push.py.
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const url = (): string =>
  process.env.DRAGONLAIR_E2E_URL ?? (JSON.parse(readFileSync(resolve(tmpdir(), 'dragonlair-e2e-server.json'), 'utf-8')) as { url: string }).url;
const cat = (lang: string) => (JSON.parse(readFileSync(resolve(here, `../public/i18n/${lang}.json`), 'utf-8')) as { messages: Record<string, string> }).messages;

interface Shown {
  title: string;
  body: string;
  tag: string;
  data: { url?: string } | null;
}

test('the service worker shows a pushed turn alert; Settings says the server sends none', async ({ browser }) => {
  const base = url();
  const ctx = await browser.newContext({ baseURL: base, locale: 'en-GB' });
  await ctx.grantPermissions(['notifications'], { origin: base });
  const page = await ctx.newPage();
  await page.goto('/settings');
  const en = cat('en');
  await expect(page.getByTestId('push-state')).toHaveText(en['web.settings.push_state.server_off']!);
  await expect(page.getByTestId('setting-push')).toBeDisabled();

  const served = await page.request.get('/sw.js');
  expect(served.status()).toBe(200);
  expect(served.headers()['content-type']).toContain('javascript');

  const cdp = await ctx.newCDPSession(page);
  // the registrations of this origin's scope the browser reports: ours, and possibly one of
  // an earlier test's (closed) context, which the browser may still list; a push goes to each
  const ids = new Set<string>();
  const registered = new Promise<void>((ok) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', (e: { registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] }) => {
      for (const r of e.registrations) {
        if (r.scopeURL !== `${base}/`) continue;
        if (r.isDeleted) ids.delete(r.registrationId);
        else ids.add(r.registrationId);
      }
      if (ids.size) ok();
    });
  });
  await cdp.send('ServiceWorker.enable');
  const scope = await page.evaluate(async () => {
    const reg = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
    await navigator.serviceWorker.ready;
    return reg.scope;
  });
  expect(scope).toBe(`${base}/`);
  await registered;

  const shown = (): Promise<Shown[]> =>
    page.evaluate(async () => {
      const reg = await navigator.serviceWorker.ready;
      const all = await reg.getNotifications();
      return all.map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data as { url?: string } | null }));
    });
  const deliver = async (data: unknown) => {
    for (const registrationId of ids) {
      // a stale one may be gone by now: only ours has to take it
      await cdp.send('ServiceWorker.deliverPushMessage', { origin: base, registrationId, data: JSON.stringify(data) }).catch(() => undefined);
    }
  };

  // what dragonlair/server/push.py sends (its words in the subscriber's language)
  const alert = {
    type: 'turn', table: 'AbCdEf123456', game: 'master', deadline: 2_000_000_000, url: '/tables/AbCdEf123456',
    title: 'Your turn: Dragon Master', body: 'Table AbCdEf123456: 3 hours left for your move', lang: 'en',
  };
  await deliver({ nonsense: true }); // no turn alert: nothing shown
  await deliver(alert);
  // a push the browser took before the new worker could handle it is sent again (the same
  // tag: still one alert); the worker's handling is what is checked here, not DevTools' timing
  const shownOrResent = async (): Promise<Shown[]> => {
    const now = await shown();
    if (now.length === 0) await deliver(alert);
    return now;
  };
  await expect.poll(shownOrResent, { timeout: 15_000 }).toEqual([
    { title: alert.title, body: alert.body, tag: 'dragonlair-turn-AbCdEf123456', data: { url: '/tables/AbCdEf123456' } },
  ]);
  // a second alert of the same table replaces the first
  await deliver({ ...alert, body: 'Table AbCdEf123456: 2 hours left for your move' });
  await expect.poll(async () => (await shown()).map((n) => n.body)).toEqual(['Table AbCdEf123456: 2 hours left for your move']);
  await ctx.close();
});
