// The play protocol (docs/protocol.md) on the client: a pure reducer from server messages to
// the table's state (tested in protocol.test.ts) and the socket that feeds it. The client
// decides nothing: it shows the server's view, sends the action texts the view's `legal`
// offers, and shows a move once its `update` arrives (no optimistic updates).
import type { ChatLine, ClockOut, EventModel, PresenceInfo, RematchNote, ServerMessage, TableOut, View } from '../gen/protocol';

export type Phase = 'idle' | 'connecting' | 'live' | 'reconnecting' | 'closed';

export interface PendingAct {
  action: string;
  key: string;
  /** the log seq the act was sent with */
  seq: number;
}

export interface TableState {
  phase: Phase;
  table: TableOut | null;
  seat: number | null;
  seq: number;
  status: string;
  view: View | null;
  /** every event this viewer was sent, in order (view.events holds only the last batch) */
  events: EventModel[];
  chat: ChatLine[];
  clock: ClockOut | null;
  /** the clock message's arrival (ms, performance.now()) */
  clockAt: number;
  pending: PendingAct | null;
  error: { code: string; params: Record<string, unknown>; rule: string | null } | null;
  takeovers: { seat: number; bot: string; reason: string; seq: number }[];
  /** a finished table's rematch offer as the server last told it (docs/protocol.md) */
  rematch?: RematchNote | null;
  /** who is connected and the away countdowns (docs/protocol.md, "Presence"), and when that
   * arrived (ms, performance.now()) */
  presence?: PresenceInfo | null;
  presenceAt?: number;
  /** a delta did not fit the view held (never on one ordered socket): the TableClient
   * reconnects, and the welcome brings the whole view */
  stale?: boolean;
}

export function initialState(): TableState {
  return {
    phase: 'idle', table: null, seat: null, seq: 0, status: 'open', view: null, events: [], chat: [],
    clock: null, clockAt: 0, pending: null, error: null, takeovers: [],
  };
}

/** The feature this client asks for in `hello` (docs/protocol.md, "Deltas"). */
export const FEATURES = ['delta'];

export class DeltaMismatch extends Error {}

type Json = unknown;
type Patch = { [k: string]: unknown };

/** The view a delta applies to: `events_since` set to `events_total` (the events of the next
 * update begin where the last ones ended; dragonlair/core/viewdelta.py `rebased`). */
export function rebased<T>(view: T): T {
  const v = view as { events_since?: unknown; events_total?: unknown };
  if (typeof v.events_since === 'number' && typeof v.events_total === 'number' && v.events_since !== v.events_total) {
    return { ...view, events_since: v.events_total };
  }
  return view;
}

function isPatch(x: unknown): x is Patch {
  return x !== null && typeof x === 'object' && !Array.isArray(x);
}

function patchOf(held: Json, patch: Patch): Json {
  let out: Record<string, Json> | Json[];
  if (Array.isArray(held)) out = [...held];
  else if (isPatch(held)) out = { ...held };
  else throw new DeltaMismatch('a patch of what is not an object or a list');
  for (const [step, entry] of Object.entries(patch)) {
    let key: string | number;
    let there: boolean;
    if (Array.isArray(out)) {
      key = /^[0-9]+$/.test(step) ? Number(step) : -1;
      there = key >= 0 && key < out.length;
    } else {
      key = step;
      there = Object.prototype.hasOwnProperty.call(out, step);
    }
    const place = out as Record<string | number, Json>;
    if (isPatch(entry)) {
      if (!there) throw new DeltaMismatch(`no ${step} in the view held`);
      place[key] = patchOf(place[key], entry);
    } else if (Array.isArray(entry) && entry.length === 1) {
      if (!there && Array.isArray(out)) throw new DeltaMismatch(`no index ${step} in the list held`);
      place[key] = entry[0];
    } else if (Array.isArray(entry) && entry.length === 0) {
      if (!there || Array.isArray(out)) throw new DeltaMismatch(`no key ${step} to remove`);
      delete place[key];
    } else if (Array.isArray(entry) && entry.length === 2) {
      const [at, items] = entry as [unknown, unknown];
      const have = there ? place[key] : undefined;
      if (!Array.isArray(have) || typeof at !== 'number' || !Number.isInteger(at) || at < 0 || at > have.length || !Array.isArray(items)) {
        throw new DeltaMismatch(`no list to extend at ${step}`);
      }
      place[key] = [...have.slice(0, at), ...items];
    } else {
      throw new DeltaMismatch(`not a patch entry at ${step}`);
    }
  }
  return out;
}

/** `view` with a delta applied (dragonlair/core/viewdelta.py; a new value, the view held is
 * not changed): each key of the patch names a key (or a list's index) of the value there;
 * its value is a patch one level down (an object), `[value]` (set), `[]` (remove the key) or
 * `[at, items]` (the list keeps its first `at` items, then `items`). The caller rebases the
 * view held first (`rebased`). */
export function applyDelta<T>(view: T, patch: unknown): T {
  if (!isPatch(view) || !isPatch(patch)) throw new DeltaMismatch('a delta is an object');
  return patchOf(view, patch) as T;
}

function mergeEvents(held: EventModel[], view: View): EventModel[] {
  // a view without events_total (Farkle today) carries all its events each time
  if (view.events_total === undefined || view.events_total === null) return [...view.events];
  const since = view.events_since ?? 0;
  const kept = held.filter((e) => e.seq < since);
  return [...kept, ...view.events];
}

function mergeChat(held: ChatLine[], lines: ChatLine[]): ChatLine[] {
  const byId = new Map(held.map((l) => [l.id, l]));
  for (const l of lines) byId.set(l.id, l);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/** The state after one server message (a new object; the input is not changed). */
export function reduce(state: TableState, msg: ServerMessage, now = 0): TableState {
  switch (msg.type) {
    case 'welcome':
      return {
        ...state, phase: 'live', table: msg.table, seat: msg.seat, seq: msg.seq, status: msg.table.status,
        view: msg.view, events: [...msg.view.events], chat: mergeChat([], msg.chat ?? []),
        clock: msg.clock ?? null, clockAt: now, stale: false,
        presence: msg.presence ?? null, presenceAt: now,
      };
    case 'update': {
      // the whole view, or (the `delta` feature) what changed since the view held; after a
      // delta that did not fit, nothing until the welcome of the new connection
      if (state.stale) return state;
      let view: View;
      try {
        if (msg.view) view = msg.view;
        else if (msg.delta && state.view) view = applyDelta(rebased(state.view), msg.delta);
        else throw new DeltaMismatch('nothing to apply');
      } catch (e) {
        if (e instanceof DeltaMismatch) return { ...state, stale: true };
        throw e;
      }
      // absent in an update with a delta: the status last sent, the seat of the view held
      const status = msg.status ?? state.status;
      const seat = msg.seat !== undefined ? msg.seat : state.seat;
      const table = state.table ? { ...state.table, status, result: view.result ?? null } : null;
      return {
        ...state, seq: msg.seq, status, seat, view, table,
        events: mergeEvents(state.events, view), clock: msg.clock ?? null, clockAt: now,
        // the update shows whether a pending act went through: the seq moved on past it
        pending: state.pending && msg.seq > state.pending.seq ? null : state.pending,
      };
    }
    case 'ack':
      return state.pending && state.pending.key === msg.key ? { ...state, pending: null, error: null } : state;
    case 'error': {
      // an act's answer names its key (we send the key as the message id); a duplicate key
      // means the act had been committed before (a resend after a drop): not an error
      const mine = state.pending !== null && msg.re === state.pending.key;
      const error = msg.code === 'server.act.duplicate_key' ? null : { code: msg.code, params: msg.params, rule: msg.rule ?? null };
      return { ...state, error, pending: mine ? null : state.pending };
    }
    case 'chat':
      return { ...state, chat: mergeChat(state.chat, [msg.message]) };
    case 'chat_history':
      return { ...state, chat: mergeChat(state.chat, msg.messages) };
    case 'rematch':
      return { ...state, rematch: msg };
    case 'presence':
      return { ...state, presence: { now: msg.now, away: msg.away, seats: msg.seats }, presenceAt: now };
    case 'takeover':
      return { ...state, takeovers: [...state.takeovers, { seat: msg.seat, bot: msg.bot, reason: msg.reason, seq: msg.seq }] };
    case 'pong':
    case 'resigned':
      return state;
    default:
      return state;
  }
}

/** Whether the view says this viewer is to move now. */
export function myTurn(state: TableState): boolean {
  return state.seat !== null && state.status === 'running' && !!state.view?.to_move.includes(state.seat) && state.view.legal !== null;
}

let counter = 0;
/** A fresh idempotency key ([A-Za-z0-9_.:-]{1,64}). */
export function newKey(): string {
  counter += 1;
  const rnd = Math.random().toString(36).slice(2, 10);
  return `w.${Date.now().toString(36)}.${rnd}.${counter}`;
}

export interface SocketLike {
  readyState: number;
  send(data: string): void;
  close(): void;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
}

/** One table's WebSocket: hello on open, act with seq and key, reconnect with backoff (a
 * pending act is resent with the same key: ack, or duplicate_key when it was committed). */
export class TableClient {
  state: TableState = initialState();
  private ws: SocketLike | null = null;
  private retry = 0;
  private stopped = false;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private url: string,
    private onState: (s: TableState) => void,
    private makeSocket: (url: string) => SocketLike = (u) => new WebSocket(u) as unknown as SocketLike,
    private clock: () => number = () => globalThis.performance?.now() ?? Date.now(),
  ) {}

  connect(): void {
    this.stopped = false;
    this.set({ ...this.state, phase: this.state.table ? 'reconnecting' : 'connecting' });
    const ws = this.makeSocket(this.url);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      ws.send(JSON.stringify({ type: 'hello', protocol: 1, features: FEATURES }));
    };
    ws.onmessage = (ev) => {
      if (typeof ev.data !== 'string') return;
      let msg: ServerMessage;
      try {
        msg = JSON.parse(ev.data) as ServerMessage;
      } catch {
        return;
      }
      const before = this.state;
      this.set(reduce(before, msg, this.clock()));
      if (this.state.stale && !before.stale) {
        ws.close(); // onclose reconnects: the welcome brings the whole view
        return;
      }
      if (msg.type === 'welcome' && before.pending) {
        // resend what we were waiting on, same key: committed already -> duplicate_key
        const p = before.pending;
        this.state = { ...this.state, pending: { ...p, seq: msg.seq } };
        this.sendRaw({ type: 'act', id: p.key, action: p.action, seq: msg.seq, key: p.key });
      }
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.stopped) {
        this.set({ ...this.state, phase: 'closed' });
        return;
      }
      this.set({ ...this.state, phase: 'reconnecting' });
      const delay = Math.min(5000, 250 * 2 ** this.retry);
      this.retry += 1;
      this.timer = setTimeout(() => this.connect(), delay);
    };
    ws.onerror = () => {
      /* onclose follows */
    };
  }

  /** Sends an action (a text from the view's legal description). */
  act(action: string): void {
    if (this.state.pending) return;
    const pending = { action, key: newKey(), seq: this.state.seq };
    this.set({ ...this.state, pending, error: null });
    this.sendRaw({ type: 'act', id: pending.key, action, seq: pending.seq, key: pending.key });
  }

  chat(text: string): void {
    this.sendRaw({ type: 'chat', text });
  }

  resign(): void {
    this.sendRaw({ type: 'resign' });
  }

  clearError(): void {
    this.set({ ...this.state, error: null });
  }

  close(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.ws?.close();
  }

  private sendRaw(msg: Record<string, unknown>): void {
    if (this.ws && this.ws.readyState === 1) this.ws.send(JSON.stringify(msg));
  }

  private set(s: TableState): void {
    this.state = s;
    this.onState(s);
  }
}

export function socketUrl(tableId: string, loc: { protocol: string; host: string } = location): string {
  return `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}/ws/tables/${encodeURIComponent(tableId)}`;
}
