// The custom Fist characters of a table (rule F9), read from the table's options as the
// server lists them (GET /api/tables/{id}: options.custom, the characters' data that the game
// checked when the table was made). The rules page opened from such a table lists them after
// the game's own cards. The options arrive as untyped JSON: anything not shaped like a
// character is left out rather than shown half. A Farkle table's deck file (D8.5) is read here
// too (tableDeck, tableCardNames), so that a table names its own cards by their own words.

import type { CardWords } from '../games/registry';
import { deckCards } from './workshop';

/** One custom character as the rules page shows it, in the reader's language. */
export interface CustomCharacter {
  id: string;
  name: string;
  count: number;
  text: string;
  /** its power's steps as data (the card's emblem is drawn from them) */
  power: unknown;
}

type Texts = Record<string, unknown>;

const isTexts = (v: unknown): v is Texts => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The text in `lang`, else the English one; none without the English one, which the game
 * requires of every character. */
function pick(texts: Texts, lang: string): string | null {
  if (typeof texts.en !== 'string') return null;
  const own = texts[lang];
  return typeof own === 'string' && own ? own : texts.en;
}

/** The custom characters in a table's `options` (under `option`: the game's
 * `characters_option`, GET /api/games), named and described in `lang`. A character
 * without a text (the server describes such a card from its power) shows an empty one. */
export function customCharacters(options: Record<string, unknown> | null | undefined, lang: string, option = 'custom'): CustomCharacter[] {
  const list = options?.[option];
  if (!Array.isArray(list)) return [];
  const out: CustomCharacter[] = [];
  for (const raw of list as unknown[]) {
    if (!isTexts(raw) || typeof raw.id !== 'string' || !isTexts(raw.name) || (raw.text !== undefined && !isTexts(raw.text))) continue;
    const name = pick(raw.name, lang);
    const text = raw.text === undefined ? '' : (pick(raw.text, lang) ?? '');
    if (name === null) continue;
    const count = typeof raw.count === 'number' && Number.isInteger(raw.count) && raw.count > 0 ? raw.count : 1;
    out.push({ id: raw.id, name, count, text, power: raw.power });
  }
  return out;
}

/** The custom characters' names in `lang` by id: the `cards` of format.ts's RenderOptions, so
 * that events and choices naming a custom card show its own name. */
export function customNames(options: Record<string, unknown> | null | undefined, lang: string, option = 'custom'): Record<string, string> {
  return Object.fromEntries(customCharacters(options, lang, option).map((c) => [c.id, c.name]));
}

/** The options of a game that hold a table's own cards (GET /api/games): its custom
 * characters' (`characters_option`, Fist F9) and the one its workshop decks set
 * (`workshop_options.deck`, a Farkle deck file, D8.5). */
export interface CardOptions {
  characters_option?: string | null;
  workshop_options?: Record<string, string> | null;
}

/** A table's own cards by id, named and described in `lang`: a deck file's (the catalogue
 * does not know them, or the file words them its own way). */
export function tableDeck(options: Record<string, unknown> | null | undefined, lang: string, game: CardOptions | null | undefined): Record<string, CardWords> {
  const option = game?.workshop_options?.deck;
  if (!option) return {};
  return Object.fromEntries(deckCards(options?.[option], lang).map((c) => [c.id, { name: c.name, text: c.text }]));
}

/** The names of a table's own cards by id, custom characters and a deck file's alike: the
 * `cards` of format.ts's RenderOptions (the log names them so); undefined where the game has
 * neither. */
export function tableCardNames(options: Record<string, unknown> | null | undefined, lang: string, game: CardOptions | null | undefined): Record<string, string> | undefined {
  const characters = game?.characters_option;
  if (!characters && !game?.workshop_options?.deck) return undefined;
  const deck = Object.entries(tableDeck(options, lang, game)).map(([id, c]) => [id, c.name] as const);
  return { ...(characters ? customNames(options, lang, characters) : {}), ...Object.fromEntries(deck) };
}
