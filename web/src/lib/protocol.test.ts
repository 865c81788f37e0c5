import { describe, expect, it } from 'vitest';
import type { ServerMessage, View } from '../gen/protocol';
import { initialState, myTurn, reduce, TableClient, type SocketLike } from './protocol';

function view(events: { seq: number; code: string }[], since: number, total: number | undefined, extra: Partial<View> = {}): View {
  return {
    schema: 'dragonlair-view', schema_version: 1, game: 'master', game_version: 1, seat: 0, to_move: [0], chance: false, phase: 'place', turn: 1,
    public: {}, private: null, legal: { action: 'place' }, events: events.map((e) => ({ ...e, params: {} })), events_since: since,
    events_total: total as number, result: null, ...extra,
  } as View;
}
const table = { id: 't1', game: 'master', status: 'running', seats: [], result: null };

describe('reduce', () => {
  it('welcome sets everything; updates append the events from events_since', () => {
    let s = reduce(initialState(), { type: 'welcome', protocol: 1, table, seat: 0, seq: 3, view: view([{ seq: 0, code: 'a' }, { seq: 1, code: 'b' }], 0, 2), chat: [] } as ServerMessage);
    expect(s.phase).toBe('live');
    expect(s.events.map((e) => e.code)).toEqual(['a', 'b']);
    expect(myTurn(s)).toBe(true);
    s = reduce(s, { type: 'update', seq: 4, status: 'running', seat: 0, view: view([{ seq: 2, code: 'c' }], 2, 3, { to_move: [1], legal: null }) } as ServerMessage);
    expect(s.events.map((e) => e.code)).toEqual(['a', 'b', 'c']);
    expect(s.seq).toBe(4);
    expect(myTurn(s)).toBe(false);
    // a repeated batch (a resend) does not double the events
    s = reduce(s, { type: 'update', seq: 4, status: 'running', seat: 0, view: view([{ seq: 2, code: 'c' }], 2, 3) } as ServerMessage);
    expect(s.events.map((e) => e.code)).toEqual(['a', 'b', 'c']);
  });
  it('a view without events_total replaces the events (Farkle today)', () => {
    let s = reduce(initialState(), { type: 'welcome', protocol: 1, table, seat: 0, seq: 0, view: view([{ seq: 0, code: 'a' }], 0, undefined), chat: [] } as ServerMessage);
    s = reduce(s, { type: 'update', seq: 1, status: 'running', seat: 0, view: view([{ seq: 0, code: 'a' }, { seq: 1, code: 'b' }], 0, undefined) } as ServerMessage);
    expect(s.events.map((e) => e.code)).toEqual(['a', 'b']);
  });
  it('ack and errors settle the pending act by its key; duplicate_key is not an error', () => {
    const base = { ...initialState(), pending: { action: 'place ruby d4', key: 'k1', seq: 3 } };
    expect(reduce(base, { type: 'ack', key: 'k1', seq: 4 } as ServerMessage).pending).toBeNull();
    const refused = reduce(base, { type: 'error', re: 'k1', code: 'server.act.stale', params: { seen: 3, seq: 5 }, rule: null } as ServerMessage);
    expect(refused.pending).toBeNull();
    expect(refused.error?.code).toBe('server.act.stale');
    const dup = reduce(base, { type: 'error', re: 'k1', code: 'server.act.duplicate_key', params: {}, rule: null } as ServerMessage);
    expect(dup.pending).toBeNull();
    expect(dup.error).toBeNull();
    const chatErr = reduce(base, { type: 'error', code: 'server.chat.empty', params: {}, rule: null } as ServerMessage);
    expect(chatErr.pending).not.toBeNull();
  });
  it('chat lines merge by id in order', () => {
    const line = (id: number) => ({ id, seat: 0, user_id: 1, name: 'A', text: `l${id}`, at: 0 });
    let s = reduce(initialState(), { type: 'chat', message: line(2) } as ServerMessage);
    s = reduce(s, { type: 'chat_history', messages: [line(1), line(2)], complete: true } as ServerMessage);
    expect(s.chat.map((l) => l.id)).toEqual([1, 2]);
  });
});

class FakeSocket implements SocketLike {
  static last: FakeSocket | null = null;
  readyState = 0;
  sent: Record<string, unknown>[] = [];
  onopen: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose: ((ev: unknown) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  constructor() {
    FakeSocket.last = this;
  }
  send(data: string) {
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }
  close() {
    this.onclose?.({});
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  recv(msg: unknown) {
    this.onmessage?.({ data: JSON.stringify(msg) });
  }
}

describe('TableClient', () => {
  it('says hello, acts with seq and key, and resends a pending act with its key after a drop', () => {
    const client = new TableClient('ws://x/ws/tables/t1', () => undefined, () => new FakeSocket(), () => 0);
    client.connect();
    const ws1 = FakeSocket.last!;
    ws1.open();
    expect(ws1.sent[0]).toEqual({ type: 'hello', protocol: 1, features: ['delta'] });
    ws1.recv({ type: 'welcome', protocol: 1, table, seat: 0, seq: 5, view: view([], 0, 0), chat: [] });
    client.act('place ruby d4');
    const act = ws1.sent[1]!;
    expect(act).toMatchObject({ type: 'act', action: 'place ruby d4', seq: 5 });
    expect(String(act.key)).toMatch(/^[A-Za-z0-9_.:-]{1,64}$/);
    client.act('place egg d5'); // one act at a time
    expect(ws1.sent).toHaveLength(2);
    // the connection drops before the answer; the client reconnects (timer) and resends
    ws1.readyState = 3;
    ws1.onclose?.({});
    expect(client.state.phase).toBe('reconnecting');
    client.connect();
    const ws2 = FakeSocket.last!;
    ws2.open();
    ws2.recv({ type: 'welcome', protocol: 1, table, seat: 0, seq: 6, view: view([], 0, 0), chat: [] });
    expect(ws2.sent[1]).toMatchObject({ type: 'act', action: 'place ruby d4', key: act.key, seq: 6 });
    ws2.recv({ type: 'error', re: act.key, code: 'server.act.duplicate_key', params: { key: act.key, seq: 6 }, rule: null });
    expect(client.state.pending).toBeNull();
    expect(client.state.error).toBeNull();
    client.close();
  });
});
