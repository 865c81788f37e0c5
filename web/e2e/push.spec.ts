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
  const registered = new Promise<string>((ok) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', (e: { registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] }) => {
      const reg = e.registrations.find((r) => !r.isDeleted && r.scopeURL === `${base}/`);
      if (reg) ok(reg.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  const scope = await page.evaluate(async () => {
    const reg = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
    await navigator.serviceWorker.ready;
    return reg.scope;
  });
  expect(scope).toBe(`${base}/`);
  const registrationId = await registered;

  const shown = (): Promise<Shown[]> =>
    page.evaluate(async () => {
      const reg = await navigator.serviceWorker.ready;
      const all = await reg.getNotifications();
      return all.map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data as { url?: string } | null }));
    });
  const deliver = (data: unknown) =>
    cdp.send('ServiceWorker.deliverPushMessage', { origin: base, registrationId, data: JSON.stringify(data) });

  // what dragonlair/server/push.py sends (its words in the subscriber's language)
  const alert = {
    type: 'turn', table: 'AbCdEf123456', game: 'master', deadline: 2_000_000_000, url: '/tables/AbCdEf123456',
    title: 'Your turn: Dragon Master', body: 'Table AbCdEf123456: 3 hours left for your move', lang: 'en',
  };
  await deliver({ nonsense: true }); // no turn alert: nothing shown
  await deliver(alert);
  await expect.poll(shown).toEqual([
    { title: alert.title, body: alert.body, tag: 'dragonlair-turn-AbCdEf123456', data: { url: '/tables/AbCdEf123456' } },
  ]);
  // a second alert of the same table replaces the first
  await deliver({ ...alert, body: 'Table AbCdEf123456: 2 hours left for your move' });
  await expect.poll(async () => (await shown()).map((n) => n.body)).toEqual(['Table AbCdEf123456: 2 hours left for your move']);
  await ctx.close();
});
