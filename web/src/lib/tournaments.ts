// Tournaments (issue 26; dragonlair/server/tournaments, docs/tournaments.md): arenas and Swiss
// tournaments. The calls to /api/tournaments and the pure helpers the two screens share
// (tested in tournaments.test.ts). Pairing, scores and standings are the server's; the page
// is polled every few seconds while it is shown (the standings, and "your game" once paired).
import type { components } from '../gen/openapi';
import { call } from './api';

type Schemas = components['schemas'];
export type TournamentIn = Schemas['TournamentIn'];
export type Tournament = Schemas['TournamentOut'];
export type TournamentList = Schemas['TournamentListOut'];
export type TournamentPage = Schemas['TournamentPageOut'];
export type Standing = Schemas['StandingOut'];
export type TournamentGame = Schemas['TournamentGameOut'];
export type GamePlayer = Schemas['GamePlayerOut'];

/** the server's bounds (dragonlair/server/tournaments/service.py), for the form */
export const LIMITS = { name: 80, minutesMin: 5, minutesMax: 180, roundsMin: 1, roundsMax: 11, startsMaxMinutes: 60 } as const;

const path = (id: string) => `/api/tournaments/${encodeURIComponent(id)}`;

export const tournaments = {
  list: () => call<TournamentList>('GET', '/api/tournaments'),
  create: (body: TournamentIn) => call<Tournament>('POST', '/api/tournaments', body),
  show: (id: string) => call<TournamentPage>('GET', path(id)),
  join: (id: string) => call<TournamentPage>('POST', `${path(id)}/join`),
  withdraw: (id: string) => call<TournamentPage>('POST', `${path(id)}/withdraw`),
};

/** How long to wait before the page is read again (ms; null: never, it is over). */
export function pollDelay(status: Tournament['status']): number | null {
  if (status === 'finished') return null;
  return status === 'running' ? 2000 : 5000;
}

/** Seconds from ``now`` to ``at`` (never below 0). */
export function secondsUntil(at: number | null | undefined, now: number): number {
  if (at === null || at === undefined) return 0;
  return Math.max(0, Math.ceil(at - now));
}

/** A countdown: m:ss, or h:mm:ss from an hour on. */
export function countdown(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** A score as shown: whole numbers without decimals, halves with one (in the language's
 * decimal sign). */
export function scoreText(score: number, lang: string): string {
  if (Number.isInteger(score)) return String(score);
  return score.toLocaleString(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

/** A finished game's people, best placed first (bots: ``name`` null). */
export function byPlacing(game: TournamentGame): GamePlayer[] {
  return [...game.players].sort((a, b) => (a.placing ?? 99) - (b.placing ?? 99));
}

/** What a finished game was for one person: win, draw (shared first place), loss, or the
 * placing at a bigger table. */
export function outcomeFor(game: TournamentGame, userId: number): 'win' | 'draw' | 'loss' | number | null {
  const me = game.players.find((p) => p.user_id === userId);
  if (!me || me.placing === null) return null;
  const firsts = game.players.filter((p) => p.placing === 1).length;
  if (game.players.length === 2) return me.placing === 1 ? (firsts > 1 ? 'draw' : 'win') : 'loss';
  return me.placing;
}

/** The standings' columns: Swiss tournaments show their tie-breaks, arenas the streaks. */
export function columns(kind: Tournament['kind']): ('score' | 'games' | 'wins' | 'buchholz' | 'sb')[] {
  return kind === 'swiss' ? ['score', 'games', 'wins', 'buchholz', 'sb'] : ['score', 'games', 'wins'];
}

/** A body for POST /api/tournaments from the form's fields (the kind's own field only). */
export function createBody(form: {
  name: string; game: string; kind: 'arena' | 'swiss'; minutes: number; rounds: number;
  size: number; bots: boolean; rated: boolean; startsIn: number;
}): TournamentIn {
  const body: TournamentIn = {
    name: form.name.trim(), game: form.game, kind: form.kind, table_size: form.size,
    bots: form.bots, rated: form.rated, starts_in_s: Math.max(0, Math.round(form.startsIn * 60)),
  };
  if (form.kind === 'arena') body.minutes = form.minutes;
  else body.rounds = form.rounds;
  return body;
}

/** The tables of the tournaments this page session has already taken the player to (or they
 * went to themselves): the page does not send them there again (lib/tournaments.ts
 * nextGame). */
const opened = new Set<string>();

/** The player is at (or was sent to) this tournament table. */
export function markOpened(table: string): void {
  opened.add(table);
}

/** The table to open for the player now, automatically: their new game, once (not one they
 * have been at already, so that coming back to the page during a game does not bounce them
 * to it again); null: stay. */
export function nextGame(me: TournamentPage['me'], enabled: boolean, seen: ReadonlySet<string> = opened): string | null {
  if (!enabled || !me?.table || seen.has(me.table)) return null;
  return me.table;
}

/** Seconds the end of a tournament game waits before it takes the player back to the
 * tournament's page (a click on "Stay here" cancels it). */
export const BACK_AFTER_S = 6;
