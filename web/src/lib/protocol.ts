// The play protocol (docs/protocol.md) on the client: a pure reducer from server messages to
// the table's state (tested in protocol.test.ts) and the socket that feeds it. The client
// decides nothing: it shows the server's view, sends the action texts the view's `legal`
// offers, and shows a move once its `update` arrives (no optimistic updates).
import type { ChatLine, ClockOut, EventModel, ServerMessage, TableOut, View } from '../gen/protocol';

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
}

export function initialState(): TableState {
  return {
    phase: 'idle', table: null, seat: null, seq: 0, status: 'open', view: null, events: [], chat: [],
    clock: null, clockAt: 0, pending: null, error: null, takeovers: [],
  };
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
        clock: msg.clock ?? null, clockAt: now,
      };
    case 'update': {
      const table = state.table ? { ...state.table, status: msg.status, result: msg.view.result ?? null } : null;
      return {
        ...state, seq: msg.seq, status: msg.status, seat: msg.seat, view: msg.view, table,
        events: mergeEvents(state.events, msg.view), clock: msg.clock ?? null, clockAt: now,
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
      ws.send(JSON.stringify({ type: 'hello', protocol: 1 }));
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
