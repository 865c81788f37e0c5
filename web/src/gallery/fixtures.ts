// The gallery's states: src/gallery/fixtures/<game>/<state>.json (scripts/game_fixtures.py),
// each loaded when shown (its own chunk), and the table state a game screen receives.
import type { View, EventModel } from '../gen/protocol';
import { initialState, type TableState } from '../lib/protocol';

export interface GalleryFixture {
  game: string;
  state: string;
  seed: number;
  /** the viewer: the seat whose view this is */
  seat: number;
  seq: number;
  status: 'running' | 'finished';
  names: string[];
  view: View;
  events: EventModel[];
}

/** The key states, in the order a game passes them. */
export const STATES = ['start', 'decision', 'reveal', 'end'] as const;
export const GAMES = ['fist', 'master', 'farkle'] as const;

const found = import.meta.glob<GalleryFixture>('./fixtures/*/*.json', { import: 'default' });

export function hasFixture(game: string, state: string): boolean {
  return Object.hasOwn(found, `./fixtures/${game}/${state}.json`);
}

export async function loadFixture(game: string, state: string): Promise<GalleryFixture> {
  const load = found[`./fixtures/${game}/${state}.json`];
  if (!load) throw new Error(`no gallery state ${game}/${state}`);
  return load();
}

/** The table state of a live table (lib/protocol.ts) holding the fixture's view and events. */
export function tableState(fx: GalleryFixture): TableState {
  return { ...initialState(), phase: 'live', seat: fx.seat, seq: fx.seq, status: fx.status, view: fx.view, events: fx.events };
}

/** `#<lang>/<game>/<state>` (each part optional: the index) */
export function parseHash(hash: string): { lang: string | null; game: string | null; state: string | null } {
  const [lang, game, state] = hash.replace(/^#\/?/, '').split('/').map((p) => decodeURIComponent(p));
  return { lang: lang || null, game: game || null, state: state || null };
}
