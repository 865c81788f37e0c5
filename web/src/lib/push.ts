// Web Push turn alerts of turn-based tables (docs/server.md, "Turn alerts and Web Push").
//
// A server with a VAPID key (GET /api/push/key) alerts a player whose turn begins at a
// turn-based table while they have no tab open on it; the service worker (public/sw.js)
// shows the alert. This browser subscribes when its player holds a seat at a turn-based table
// and notifications are allowed (the permission is asked when they start or join such a table,
// lib/alerts.ts, or from Settings; never on page load), and hands the subscription to the
// server again on each such visit (its keys or language may have changed). Settings can turn
// it off: the subscription is deleted on the server and in the browser. Signing out does the
// same (dropPush) but leaves the reader's choice as it was.
import { api, ApiError } from './api';

const KEY = 'dragonlair.push';

/** What this browser keeps: push turned off by its reader, and the server's id of its
 * subscription (to delete it). */
export interface PushStored {
  off: boolean;
  id: number | null;
}

export function parsePushStored(raw: string | null): PushStored {
  const d: PushStored = { off: false, id: null };
  if (!raw) return d;
  try {
    const v = JSON.parse(raw) as Partial<Record<keyof PushStored, unknown>> | null;
    if (!v || typeof v !== 'object') return d;
    return {
      off: typeof v.off === 'boolean' ? v.off : false,
      id: typeof v.id === 'number' && Number.isInteger(v.id) && v.id > 0 ? v.id : null,
    };
  } catch {
    return d;
  }
}

function load(): PushStored {
  try {
    return parsePushStored(globalThis.localStorage?.getItem(KEY) ?? null);
  } catch {
    return parsePushStored(null);
  }
}

function save(s: PushStored): void {
  try {
    globalThis.localStorage?.setItem(KEY, JSON.stringify(s));
  } catch {
    /* private mode: lasts this page */
  }
}

/** The bytes of a base64url text (the server's public key, as `applicationServerKey`). */
export function keyBytes(text: string): Uint8Array<ArrayBuffer> {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  const bin = atob(b64);
  const out = new Uint8Array(new ArrayBuffer(bin.length));
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Whether a subscription's `applicationServerKey` is the server's key now. */
export function sameKey(held: ArrayBuffer | null | undefined, key: Uint8Array): boolean {
  if (!held) return false;
  const a = new Uint8Array(held);
  return a.length === key.length && a.every((x, i) => x === key[i]);
}

/** Where this browser stands: `unsupported` (no service worker or push), `denied` (the
 * reader blocked notifications), `off` (turned off in Settings), `server_off` (the server
 * sends none), `on` (subscribed), `ready` (will subscribe at the next turn-based table). */
export type PushStatus = 'unsupported' | 'denied' | 'off' | 'server_off' | 'on' | 'ready';

export function pushSupported(): boolean {
  const g = globalThis as { navigator?: Navigator; PushManager?: unknown; Notification?: unknown };
  return !!g.navigator && 'serviceWorker' in g.navigator && !!g.PushManager && !!g.Notification;
}

function permission(): string {
  return (globalThis as { Notification?: { permission: string } }).Notification?.permission ?? 'denied';
}

let synced: string | null = null; // the language this page last handed the subscription in
let serverOff = false;

/** The status shown in Settings. */
export async function pushStatus(): Promise<PushStatus> {
  if (!pushSupported()) return 'unsupported';
  if (load().off) return 'off';
  if (permission() === 'denied') return 'denied';
  try {
    await api.pushKey();
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return 'server_off';
  }
  const reg = await navigator.serviceWorker.getRegistration('/');
  const sub = await reg?.pushManager.getSubscription();
  return sub && load().id !== null ? 'on' : 'ready';
}

/** Subscribe this browser (or hand its subscription over again, in `lang`): only when push is
 * supported, not turned off, notifications already allowed, and the server has a key. Never
 * asks for permission. Failures are quiet: the page's own alerts still work. */
export async function keepPush(lang: string): Promise<boolean> {
  if (!pushSupported() || serverOff || load().off || permission() !== 'granted' || synced === lang) return false;
  synced = lang;
  try {
    const { key } = await api.pushKey();
    const bytes = keyBytes(key);
    const reg = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
    await navigator.serviceWorker.ready;
    let sub = await reg.pushManager.getSubscription();
    if (sub && !sameKey(sub.options.applicationServerKey, bytes)) {
      await sub.unsubscribe(); // the server's key changed: a subscription for the new one
      sub = null;
    }
    sub ??= await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytes });
    const json = sub.toJSON();
    const keys = json.keys ?? {};
    if (!json.endpoint || !keys.p256dh || !keys.auth) throw new Error('no keys');
    const { id } = await api.pushSubscribe({ endpoint: json.endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth }, lang });
    save({ ...load(), id });
    return true;
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) serverOff = true;
    synced = null;
    return false;
  }
}

/** Turn push on again (from Settings, a click: the permission may be asked here). */
export async function enablePush(lang: string): Promise<PushStatus> {
  save({ ...load(), off: false });
  const N = (globalThis as { Notification?: { permission: string; requestPermission(): Promise<string> } }).Notification;
  if (N && N.permission === 'default') {
    try {
      await N.requestPermission();
    } catch {
      /* dismissed */
    }
  }
  synced = null;
  await keepPush(lang);
  return pushStatus();
}

/** What forgetting this browser's subscription touches: the server's copy (by its id) and
 * the browser's own. The real ones by default; a test passes its own. */
export interface PushSinks {
  server: (id: number) => Promise<unknown>;
  browser: () => Promise<{ unsubscribe(): Promise<boolean> } | null | undefined>;
}

const realSinks: PushSinks = {
  server: (id) => api.pushUnsubscribe(id),
  browser: async () => {
    if (!pushSupported()) return null;
    const reg = await navigator.serviceWorker.getRegistration('/');
    return reg?.pushManager.getSubscription();
  },
};

/** The server forgets the subscription `id` (needs the session that made it) and the browser
 * drops its own; each failure is quiet (gone already, signed out, push unsupported: the push
 * service's 410 deletes a server copy left over at its next alert). */
async function forget(id: number | null, sinks: PushSinks): Promise<void> {
  if (id !== null) {
    try {
      await sinks.server(id);
    } catch {
      /* see above */
    }
  }
  try {
    const sub = await sinks.browser();
    await sub?.unsubscribe();
  } catch {
    /* nothing to drop */
  }
}

/** Turn push off: the server forgets the subscription and the browser drops it. */
export async function disablePush(): Promise<PushStatus> {
  const stored = load();
  save({ off: true, id: null });
  synced = null;
  await forget(stored.id, realSinks);
  return 'off';
}

/** On signing out (lib/AccountMenu.svelte), before the session ends: this browser's
 * subscription is forgotten on the server and dropped in the browser, so that a shared
 * browser no longer gets the old player's turn alerts. The reader's choice in Settings (push
 * on or off) stays, and whoever plays here next subscribes afresh at their next turn-based
 * table. Never fails, and gives up waiting after `limitMs`: signing out goes on regardless. */
export async function dropPush(sinks: PushSinks = realSinks, limitMs = 3000): Promise<void> {
  const stored = load();
  save({ off: stored.off, id: null });
  synced = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<void>((ok) => (timer = setTimeout(ok, limitMs)));
  try {
    await Promise.race([forget(stored.id, sinks), limit]);
  } finally {
    clearTimeout(timer);
  }
}
