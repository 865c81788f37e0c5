// "Your turn": when the view says this seat is to move (TableScreen passes myTurn of
// protocol.ts: the view's to_move and legal, no rule here), the tab title and the favicon show
// it, a short tone made here plays (WebAudio, no file), and a browser notification is shown
// while the tab is hidden. All of it is undone when the turn passes or the table is left.
// Permission for notifications is asked only when the player starts or joins a turn-based
// table (askNotifyPermission, from a click), never on page load.
//
// Pure TypeScript (tested in alerts.test.ts): the words come from the caller (rendered from
// the catalogues), the settings too.

/** What one turn change asks for. */
export type TurnChange = 'start' | 'end' | null;

/** The change from one "is it my turn" to the next: a turn begins (`start`) or passes
 * (`end`); nothing when it stays as it was. */
export function turnChange(before: boolean, now: boolean): TurnChange {
  if (now && !before) return 'start';
  if (!now && before) return 'end';
  return null;
}

/** Whether a notification is shown now: wanted, allowed by the browser, and the page hidden
 * (a visible page already shows the turn). */
export function shouldNotify(o: { enabled: boolean; permission: string; hidden: boolean }): boolean {
  return o.enabled && o.permission === 'granted' && o.hidden;
}

/** The favicon with a mark: the project's icon (a "D" on dark red) with a bright dot in its
 * corner, as an SVG data URL. */
export function markedIcon(): string {
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">' +
    '<rect width="32" height="32" rx="6" fill="#7a1f1f"/>' +
    '<text x="13" y="23" font-size="18" text-anchor="middle" fill="#fff" font-family="sans-serif">D</text>' +
    '<circle cx="24" cy="8" r="7.5" fill="#ffcc00" stroke="#fff" stroke-width="1.5"/></svg>';
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

/** One note of the tone: frequency (Hz), start and length (s), peak gain. */
export interface Note {
  freq: number;
  at: number;
  length: number;
  gain: number;
}

/** The "your turn" tone: two short rising notes (a fifth apart), soft, under half a second. */
export const TURN_TONE: readonly Note[] = [
  { freq: 659.25, at: 0, length: 0.14, gain: 0.18 },
  { freq: 987.77, at: 0.16, length: 0.22, gain: 0.18 },
];

/** The gain envelope of a note: silence, a quick rise (10 ms), a decay to near nothing at its
 * end (points of time and gain, times relative to the tone's start). */
export function envelope(n: Note): { t: number; g: number }[] {
  return [
    { t: n.at, g: 0.0001 },
    { t: n.at + 0.01, g: n.gain },
    { t: n.at + n.length, g: 0.0001 },
  ];
}

interface AudioLike {
  currentTime: number;
  state: string;
  destination: unknown;
  resume(): Promise<void>;
  createOscillator(): {
    type: string;
    frequency: { value: number };
    connect(n: unknown): unknown;
    start(t: number): void;
    stop(t: number): void;
  };
  createGain(): {
    gain: { setValueAtTime(v: number, t: number): void; exponentialRampToValueAtTime(v: number, t: number): void };
    connect(n: unknown): unknown;
  };
}

let audio: AudioLike | null = null;

/** Plays the tone (nothing where the browser has no WebAudio or refuses to start it). */
export function playTone(notes: readonly Note[] = TURN_TONE): void {
  try {
    const Ctor = (globalThis as { AudioContext?: new () => AudioLike }).AudioContext;
    if (!Ctor) return;
    audio ??= new Ctor();
    const ctx = audio;
    if (ctx.state === 'suspended') void ctx.resume().catch(() => undefined);
    const t0 = ctx.currentTime + 0.02;
    for (const n of notes) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = 'sine';
      osc.frequency.value = n.freq;
      const [first, ...rest] = envelope(n);
      gain.gain.setValueAtTime(first!.g, t0 + first!.t);
      for (const p of rest) gain.gain.exponentialRampToValueAtTime(p.g, t0 + p.t);
      osc.connect(gain);
      gain.connect(ctx.destination);
      osc.start(t0 + n.at);
      osc.stop(t0 + n.at + n.length + 0.02);
    }
  } catch {
    /* no sound: the title and icon still say it */
  }
}

type NotificationCtor = {
  permission: string;
  requestPermission(): Promise<string>;
  new (title: string, opts?: { body?: string; tag?: string; icon?: string }): { onclick: (() => void) | null; close(): void };
};

function notifications(): NotificationCtor | null {
  return (globalThis as { Notification?: NotificationCtor }).Notification ?? null;
}

/** Asks the browser for permission to notify, once (only where it has not been answered):
 * called when the player starts or joins a turn-based table (or asks in Settings), never on
 * page load. */
export async function askNotifyPermission(): Promise<void> {
  const N = notifications();
  if (!N || N.permission !== 'default') return;
  try {
    await N.requestPermission();
  } catch {
    /* refused or dismissed: asked again only from Settings */
  }
}

/** The browser's answer on notifications, or "unsupported". */
export function notifyPermission(): 'granted' | 'denied' | 'default' | 'unsupported' {
  const p = notifications()?.permission;
  return p === 'granted' || p === 'denied' || p === 'default' ? p : 'unsupported';
}

/** Whether a table's clock is turn-based (a clock of `kind: "turn"`). */
export function isTurnBased(clock: unknown): boolean {
  return !!clock && typeof clock === 'object' && (clock as { kind?: unknown }).kind === 'turn';
}

/** What the page needs to tell a turn: its words (rendered by the caller) and the settings. */
export interface TurnWords {
  /** the tab title while it is this player's turn ("● Your turn — Dragonlair") */
  title: string;
  /** the notification's title and text */
  notifyTitle: string;
  notifyBody: string;
  sound: boolean;
  notify: boolean;
  /** one notification per table (a newer one replaces the older) */
  tag: string;
}

/** The page's "your turn" state: title, favicon, tone and notification; one per table screen. */
export class TurnAlert {
  private mine = false;
  private savedTitle: string | null = null;
  private savedIcon: string | null = null;
  private note: { close(): void } | null = null;

  /** The turn as the view says it now; the effects run only when it changes. */
  set(mine: boolean, words: TurnWords): void {
    const change = turnChange(this.mine, mine);
    this.mine = mine;
    if (change === 'start') this.begin(words);
    else if (change === 'end') this.clear();
    else if (mine) document.title = words.title; // the reader's language changed
  }

  /** Back to the plain title and icon (the table screen is left). */
  clear(): void {
    this.mine = false;
    if (this.savedTitle !== null) document.title = this.savedTitle;
    this.savedTitle = null;
    const link = iconLink();
    if (link && this.savedIcon !== null) link.href = this.savedIcon;
    this.savedIcon = null;
    this.note?.close();
    this.note = null;
  }

  private begin(w: TurnWords): void {
    this.savedTitle ??= document.title;
    document.title = w.title;
    const link = iconLink();
    if (link) {
      this.savedIcon ??= link.getAttribute('href') ?? '/favicon.svg';
      link.href = markedIcon();
    }
    if (w.sound) playTone();
    const N = notifications();
    if (N && shouldNotify({ enabled: w.notify, permission: N.permission, hidden: document.hidden })) {
      try {
        const n = new N(w.notifyTitle, { body: w.notifyBody, tag: w.tag, icon: '/favicon.svg' });
        n.onclick = () => {
          globalThis.focus?.();
          n.close();
        };
        this.note = n;
      } catch {
        /* some browsers allow notifications only from a service worker */
      }
    }
  }
}

function iconLink(): HTMLLinkElement | null {
  return globalThis.document?.querySelector<HTMLLinkElement>('link[rel="icon"]') ?? null;
}
