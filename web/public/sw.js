// The service worker of Dragonlair: Web Push turn alerts of turn-based tables (docs/server.md,
// "Turn alerts and Web Push"; dragonlair/server/push.py sends them, lib/push.ts subscribes).
// It shows the alert the server wrote (title and line in the subscriber's language, from the
// catalogues) and, when it is clicked, focuses a tab of the table or opens one. It handles no
// fetch: pages load as they do without it.
'use strict';

self.addEventListener('install', () => {
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

/** The alert's fields from a push's JSON (anything malformed: no alert but a plain one). */
function alertOf(data) {
  const ok = data && typeof data === 'object' && data.type === 'turn' && typeof data.table === 'string';
  if (!ok) return null;
  const url = typeof data.url === 'string' && data.url.startsWith('/') ? data.url : `/tables/${encodeURIComponent(data.table)}`;
  return {
    title: typeof data.title === 'string' ? data.title : 'Dragonlair',
    body: typeof data.body === 'string' ? data.body : '',
    lang: typeof data.lang === 'string' ? data.lang : undefined,
    table: data.table,
    url,
  };
}

self.addEventListener('push', (event) => {
  let data = null;
  try {
    data = event.data ? event.data.json() : null;
  } catch {
    data = null;
  }
  const alert = alertOf(data);
  if (!alert) return;
  event.waitUntil(
    self.registration.showNotification(alert.title, {
      body: alert.body,
      lang: alert.lang,
      icon: '/favicon.svg',
      // one alert per table: a newer one replaces the older (and the page's own uses the same)
      tag: `dragonlair-turn-${alert.table}`,
      renotify: true,
      data: { url: alert.url },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || '/', self.location.origin);
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const same = windows.find((w) => new URL(w.url).pathname === url.pathname);
      if (same) return same.focus();
      const any = windows.find((w) => new URL(w.url).origin === url.origin);
      if (any && 'navigate' in any) {
        const moved = await any.navigate(url.href);
        return (moved || any).focus();
      }
      return self.clients.openWindow(url.href);
    })(),
  );
});
