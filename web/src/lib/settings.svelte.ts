// The reader's settings, kept in localStorage: language, animations, the "your turn" sound and
// notification (lib/alerts.ts), and whether a final move asks for a confirm (lib/Confirm.svelte).
const KEY = 'dragonlair.settings';

export interface Stored {
  lang: string | null;
  animations: boolean;
  /** a short tone when it becomes this player's turn */
  sound: boolean;
  /** a browser notification when it becomes this player's turn while the tab is hidden */
  notify: boolean;
  /** a final move (a Master placement, a Farkle bank or battle choice, a Fist power decision)
   * waits for a second click on "Confirm" (or Enter) before it is sent */
  confirm: boolean;
  /** a tournament player is taken to each new game of theirs, and back to the tournament's
   * page after it (screens/Tournament.svelte, EndOfGame.svelte) */
  autoOpen: boolean;
}

/** The settings from what was stored (anything missing or of the wrong type: its default). */
export function parseStored(raw: string | null, reducedMotion = false): Stored {
  const d: Stored = { lang: null, animations: !reducedMotion, sound: true, notify: true, confirm: true, autoOpen: true };
  if (!raw) return d;
  let v: Partial<Record<keyof Stored, unknown>>;
  try {
    v = JSON.parse(raw) as Partial<Record<keyof Stored, unknown>>;
  } catch {
    return d;
  }
  if (!v || typeof v !== 'object') return d;
  const flag = (x: unknown, def: boolean) => (typeof x === 'boolean' ? x : def);
  return {
    lang: typeof v.lang === 'string' ? v.lang : null,
    animations: flag(v.animations, d.animations),
    sound: flag(v.sound, d.sound),
    notify: flag(v.notify, d.notify),
    confirm: flag(v.confirm, d.confirm),
    autoOpen: flag(v.autoOpen, d.autoOpen),
  };
}

function load(): Stored {
  let raw: string | null = null;
  try {
    raw = globalThis.localStorage?.getItem(KEY) ?? null;
  } catch {
    /* no storage: defaults */
  }
  const reduced = globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  return parseStored(raw, reduced);
}

export const settings = $state<Stored>(load());

export function saveSettings(): void {
  try {
    globalThis.localStorage?.setItem(KEY, JSON.stringify(settings));
  } catch {
    /* private mode: the choice lasts this page */
  }
}
