// Updates as deltas (docs/protocol.md, "Deltas"): the browser's applyDelta rebuilds, from
// the first view and the deltas the server's diff made (fixtures/deltas.json, written by
// web/scripts/delta_fixture.py from seeded games of the three games), every full view the
// server would have sent, exactly (its SHA-256 over canonical JSON): deltas never drift.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ServerMessage, View } from '../gen/protocol';
import { applyDelta, DeltaMismatch, initialState, rebased, reduce, TableClient, type SocketLike } from './protocol';

interface Case {
  game: string;
  seat: number | null;
  first: View;
  deltas: Record<string, unknown>[];
  sha256: string[];
}
const { cases } = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', 'deltas.json'), 'utf8')) as { cases: Case[] };

/** JSON with sorted keys and no spaces (Python's json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=False)). */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}
const sha = (v: unknown) => createHash('sha256').update(canonical(v), 'utf8').digest('hex');
const table = { id: 't1', game: 'fist', status: 'running', seats: [], result: null };

describe('applyDelta', () => {
  it.each(cases.map((c) => [`${c.game} seat ${c.seat}`, c] as const))('rebuilds every view of %s', (_name, c) => {
    expect(c.deltas.length).toBeGreaterThan(20);
    let view: View = c.first;
    c.deltas.forEach((ops, i) => {
      const before = canonical(view);
      const next = applyDelta(rebased(view), ops);
      expect(canonical(view)).toBe(before); // the view held is not changed in place
      expect(sha(next)).toBe(c.sha256[i]);
      view = next;
    });
  });
  it('the reducer merges deltas into the views and events the full updates give', () => {
    const c = cases[0]!;
    let s = reduce(initialState(), { type: 'welcome', protocol: 1, table, seat: c.seat, seq: 0, view: c.first, chat: [], features: ['delta'] } as ServerMessage);
    c.deltas.forEach((delta, i) => {
      // as the server sends it: no seat (that of the view held), the status once it changes
      s = reduce(s, { type: 'update', seq: i + 1, delta } as ServerMessage);
      expect(s.stale).toBeFalsy();
      expect(s.seat).toBe(c.seat);
      expect(s.status).toBe('running');
      expect(sha(s.view)).toBe(c.sha256[i]);
    });
    // the events merged from deltas: the same as all of them at once
    expect(s.events.map((e) => e.seq)).toEqual([...Array(s.view!.events_total).keys()].filter((n) => s.events.some((e) => e.seq === n)));
    expect(new Set(s.events.map((e) => e.seq)).size).toBe(s.events.length);
  });
  it('refuses what does not fit, and the client reconnects for the whole view', () => {
    const held = { a: [1, 2], b: { c: 1 } };
    const misfits = [{ a: [9, [1]] }, { zz: { q: [1] } }, { a: { 7: [1] } }, { a: { x: [1] } }, { zz: [] }, { a: { 0: [] } },
      { a: [1, 2, 3] }, { a: 'x' }, { a: { 0: { k: [1] } } }, [], null];
    for (const patch of misfits) expect(() => applyDelta(held, patch)).toThrow(DeltaMismatch);
    expect(applyDelta(held, { a: [2, [3]], b: { c: [], 'x/y': [true] } })).toEqual({ a: [1, 2, 3], b: { 'x/y': true } });
    expect(applyDelta(held, { a: { 1: [5] }, n: [null] })).toEqual({ a: [1, 5], b: { c: 1 }, n: null });
    expect(held).toEqual({ a: [1, 2], b: { c: 1 } });
    expect(rebased({ events_since: 2, events_total: 5 })).toEqual({ events_since: 5, events_total: 5 });

    type Fake = SocketLike & { sent: unknown[]; closed: boolean };
    const sockets: Fake[] = [];
    const make = () => {
      const ws = { readyState: 1, sent: [] as unknown[], closed: false, onopen: null, onmessage: null, onclose: null, onerror: null,
        send(d: string) { this.sent.push(JSON.parse(d)); }, close() { this.closed = true; } } as SocketLike & { sent: unknown[]; closed: boolean };
      sockets.push(ws);
      return ws;
    };
    const client = new TableClient('ws://x', () => {}, make);
    client.connect();
    const ws = sockets[0]!;
    ws.onopen?.({});
    expect(ws.sent[0]).toEqual({ type: 'hello', protocol: 1, features: ['delta'] });
    ws.onmessage?.({ data: JSON.stringify({ type: 'welcome', protocol: 1, table, seat: 0, seq: 0, view: cases[0]!.first, chat: [] }) });
    ws.onmessage?.({ data: JSON.stringify({ type: 'update', seq: 1, delta: { nothing: { here: [1] } } }) });
    expect(client.state.stale).toBe(true);
    expect(ws.closed).toBe(true);
    client.close();
  });
});
