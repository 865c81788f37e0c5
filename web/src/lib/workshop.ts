// The workshop (issue 26; dragonlair/server/workshop, docs/workshop.md): published Fist
// characters, Farkle decks and scoring tables and rule variants, in versions. The calls to
// /api/workshop and the pure helpers the screens share (tested in workshop.test.ts). Every
// verdict on an entry (sizes, contents, who may see it) is the server's.
import type { components } from '../gen/openapi';
import { call, type TableInfo } from './api';

type Schemas = components['schemas'];
export type EntryCard = Schemas['EntryCardOut'];
export type Entry = Schemas['EntryOut'];
export type EntryList = Schemas['EntryListOut'];
export type EntryIn = Schemas['EntryIn'];
export type VersionIn = Schemas['VersionIn'];
export type Kind = EntryIn['kind'];
export type Sort = 'newest' | 'played' | 'rated';

export const KINDS: readonly Kind[] = ['characters', 'deck', 'scoring', 'variant'];
export const SORTS: readonly Sort[] = ['newest', 'played', 'rated'];
/** the server's bounds (dragonlair/server/workshop/api.py), for the form's counters */
export const LIMITS = { title: 80, titleMin: 3, description: 8000, tags: 8, tag: 24 } as const;

export interface ListQuery {
  game?: string | null;
  kind?: string | null;
  tag?: string | null;
  q?: string;
  sort?: string;
  offset?: number;
  limit?: number;
}

/** The query string of a list request (empty values left out). */
export function listParams(query: ListQuery): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === null || v === undefined || v === '') continue;
    if (k === 'sort' && v === 'newest') continue;
    p.set(k, String(v));
  }
  const s = p.toString();
  return s ? `?${s}` : '';
}

export const workshopApi = {
  list: (query: ListQuery) => call<EntryList>('GET', `/api/workshop/entries${listParams(query)}`),
  entry: (id: number, version?: number | null) =>
    call<Entry>('GET', `/api/workshop/entries/${id}${version ? `?version=${version}` : ''}`),
  publish: (body: EntryIn) => call<Entry>('POST', '/api/workshop/entries', body),
  edit: (id: number, body: VersionIn) => call<Entry>('POST', `/api/workshop/entries/${id}/versions`, body),
  vote: (id: number, stars: number) => call<Entry>('PUT', `/api/workshop/entries/${id}/vote`, { stars }),
  play: (id: number, version?: number | null) =>
    call<TableInfo>('POST', `/api/workshop/entries/${id}/play`, version ? { version } : {}),
};

/** Tags as typed ("Economy, cheap  fast") → the server's form: lower-case, unique, in order. */
export function parseTags(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(/[\s,]+/)) {
    const tag = raw.trim().toLowerCase();
    if (tag && !out.includes(tag)) out.push(tag);
  }
  return out;
}

/** Five stars as text, the mean rounded to a half ("★★★½☆"); null: no votes. */
export function starText(rating: number | null | undefined): string {
  if (rating === null || rating === undefined) return '';
  const halves = Math.round(rating * 2);
  const full = Math.floor(halves / 2);
  const half = halves % 2 === 1;
  return '★'.repeat(full) + (half ? '½' : '') + '☆'.repeat(5 - full - (half ? 1 : 0));
}

/** A value of an option as one line of text (objects as compact JSON). */
export function valueText(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** A scoring table (Farkle's ``table`` option) as rows of combination and points; a list of
 * points (``triple``: per face) becomes one row per face. */
export function scoringRows(table: unknown): { name: string; points: string }[] {
  if (!table || typeof table !== 'object' || Array.isArray(table)) return [];
  const rows: { name: string; points: string }[] = [];
  for (const [name, value] of Object.entries(table as Record<string, unknown>)) {
    if (Array.isArray(value)) value.forEach((v, i) => rows.push({ name: `${name} ${i + 1}`, points: valueText(v) }));
    else rows.push({ name, points: valueText(value) });
  }
  return rows;
}

export interface DeckCard {
  deck: string;
  id: string;
  name: string;
  text: string;
  count: number;
}

/** Farkle's ``decks`` option as cards: each deck's cards with the name and text in ``lang``
 * (English where there is none). */
export function deckCards(decks: unknown, lang: string): DeckCard[] {
  if (!decks || typeof decks !== 'object' || Array.isArray(decks)) return [];
  const pick = (v: unknown): string => {
    if (typeof v === 'string') return v;
    if (v && typeof v === 'object') {
      const m = v as Record<string, unknown>;
      return String(m[lang] ?? m.en ?? '');
    }
    return '';
  };
  const out: DeckCard[] = [];
  for (const [deck, cards] of Object.entries(decks as Record<string, unknown>)) {
    if (!Array.isArray(cards)) continue;
    for (const c of cards) {
      if (!c || typeof c !== 'object') continue;
      const card = c as Record<string, unknown>;
      out.push({ deck, id: String(card.id ?? ''), name: pick(card.name) || String(card.id ?? ''),
        text: pick(card.text), count: typeof card.count === 'number' ? card.count : 1 });
    }
  }
  return out;
}

/** A deck's name in the reader's language: the game's words for it (`<game>.deck.name.<deck>`,
 * Farkle's "Companion" and "Magic item"), else its key. */
export function deckName(game: string, deck: string, words: (code: string, fallback: string) => string): string {
  return words(`${game}.deck.name.${deck}`, deck);
}

/** What a game says of its workshop kinds (GET /api/games): the option of its characters and
 * the option each further kind (a deck, a scoring table) sets. */
export interface KindGame {
  characters_option?: string | null;
  workshop_options?: Record<string, string>;
}

/** The option a kind sets in ``game`` (characters: the game's characters option; a deck, a
 * scoring table: the option its plugin names), null for a variant or a kind it does not have. */
export function kindOption(kind: string, game: KindGame | null | undefined): string | null {
  if (kind === 'characters') return game?.characters_option ?? null;
  return game?.workshop_options?.[kind] ?? null;
}

/** The options a kind's entry sets, which a variant of ``game`` leaves alone. */
export function kindOptions(game: KindGame | null | undefined): string[] {
  return [game?.characters_option ?? '', ...Object.values(game?.workshop_options ?? {})].filter((o) => o);
}

/** A link's click as the app's own navigation (a modified click opens a tab as usual). */
export function follow(e: MouseEvent, path: string, go: (path: string) => void): void {
  if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  go(path);
}

/** A description's Markdown as the page will show it (the server renders and sanitises). */
export const previewHtml = (description: string) =>
  call<{ html: string }>('POST', '/api/workshop/preview', { description });

/** The form field a refusal belongs to (its ``field`` param, or the content's codes). */
export function errorField(code: string, params: Record<string, unknown> | undefined): string {
  const field = params?.field;
  if (typeof field === 'string' && ['title', 'description', 'tags'].includes(field)) return field;
  if (code === 'server.workshop.too_many_tags' || code === 'server.workshop.bad_tag') return 'tags';
  if (code.startsWith('server.workshop.daily') || code === 'server.workshop.guest' || code === 'server.workshop.not_author') return 'form';
  return 'content';
}

/** A variant's options as a table names them: every option set apart from its default
 * (`players` is the table's own), "label: value", in the game's order of options. */
export function variantLines(
  specs: readonly { name: string; default?: unknown }[],
  options: Record<string, unknown> | null | undefined,
  label: (name: string) => string,
): string[] {
  if (!options) return [];
  return specs
    .filter((o) => o.name !== 'players' && o.name in options && JSON.stringify(options[o.name]) !== JSON.stringify(o.default ?? null))
    .map((o) => `${label(o.name)}: ${valueText(options[o.name])}`);
}
