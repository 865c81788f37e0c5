import { afterEach, describe, expect, it, vi } from 'vitest';
import { dropPush, keyBytes, parsePushStored, sameKey, type PushSinks } from './push';

describe('push', () => {
  it('reads the server key as applicationServerKey bytes (base64url, no padding)', () => {
    // a P-256 public key: 65 bytes, the uncompressed point (0x04, x, y)
    const raw = new Uint8Array(65).map((_, i) => (i === 0 ? 4 : (i * 37) % 256));
    const text = btoa(String.fromCharCode(...raw)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    expect(text).not.toMatch(/[+/=]/);
    const bytes = keyBytes(text);
    expect(bytes.length).toBe(65);
    expect(Array.from(bytes)).toEqual(Array.from(raw));
  });

  it('knows whether a subscription was made for the key the server has now', () => {
    const key = new Uint8Array([4, 1, 2, 3]);
    expect(sameKey(new Uint8Array([4, 1, 2, 3]).buffer, key)).toBe(true);
    expect(sameKey(new Uint8Array([4, 1, 2, 9]).buffer, key)).toBe(false);
    expect(sameKey(new Uint8Array([4, 1, 2]).buffer, key)).toBe(false);
    expect(sameKey(null, key)).toBe(false);
  });

  it('reads what was stored, anything malformed as the default (on, no subscription)', () => {
    expect(parsePushStored(null)).toEqual({ off: false, id: null });
    expect(parsePushStored('{"off":true,"id":7}')).toEqual({ off: true, id: 7 });
    expect(parsePushStored('{"off":"yes","id":-2}')).toEqual({ off: false, id: null });
    expect(parsePushStored('{"id":1.5}')).toEqual({ off: false, id: null });
    expect(parsePushStored('not json')).toEqual({ off: false, id: null });
    expect(parsePushStored('null')).toEqual({ off: false, id: null });
  });
});

/** A localStorage of one page (vitest runs in node, which has none). */
function storage(initial: Record<string, string> = {}): Record<string, string> {
  const data = { ...initial };
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => data[k] ?? null,
    setItem: (k: string, v: string) => void (data[k] = v),
  });
  return data;
}

/** Sinks that record what was asked of them; `serverFails`/`browserFails` make them throw. */
function sinks(opts: { serverFails?: boolean; browserFails?: boolean; subscribed?: boolean } = {}) {
  const calls: string[] = [];
  const s: PushSinks = {
    server: async (id) => {
      calls.push(`server ${id}`);
      if (opts.serverFails) throw new Error('401');
      return { ok: true };
    },
    browser: async () => {
      if (opts.browserFails) throw new Error('no service worker');
      return opts.subscribed === false ? null : { unsubscribe: async () => (calls.push('browser'), true) };
    },
  };
  return { s, calls };
}

describe('signing out drops this browser\'s push subscription', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('deletes it on the server and in the browser, and keeps the reader\'s choice', async () => {
    const data = storage({ 'dragonlair.push': '{"off":false,"id":7}' });
    const { s, calls } = sinks();
    await dropPush(s);
    expect(calls).toEqual(['server 7', 'browser']);
    expect(parsePushStored(data['dragonlair.push']!)).toEqual({ off: false, id: null });
  });

  it('with push turned off or never subscribed: no server call, the choice stays off', async () => {
    const data = storage({ 'dragonlair.push': '{"off":true,"id":null}' });
    const { s, calls } = sinks({ subscribed: false });
    await dropPush(s);
    expect(calls).toEqual([]);
    expect(parsePushStored(data['dragonlair.push']!)).toEqual({ off: true, id: null });
  });

  it('never fails: a refused delete still drops the browser\'s copy; no push, no storage', async () => {
    const data = storage({ 'dragonlair.push': '{"off":false,"id":3}' });
    const refused = sinks({ serverFails: true });
    await expect(dropPush(refused.s)).resolves.toBeUndefined();
    expect(refused.calls).toEqual(['server 3', 'browser']);
    expect(parsePushStored(data['dragonlair.push']!).id).toBeNull();
    vi.unstubAllGlobals(); // no localStorage at all (node; a browser's private mode)
    const unsupported = sinks({ browserFails: true });
    await expect(dropPush(unsupported.s)).resolves.toBeUndefined();
    expect(unsupported.calls).toEqual([]);
  });

  it('gives up waiting on a push service that does not answer', async () => {
    storage({ 'dragonlair.push': '{"off":false,"id":5}' });
    vi.useFakeTimers();
    const hanging: PushSinks = { server: () => new Promise(() => undefined), browser: async () => null };
    let done = false;
    const out = dropPush(hanging, 3000).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(2999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await out;
    expect(done).toBe(true);
  });
});
