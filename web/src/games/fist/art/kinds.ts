// The pictures of Fist of Dragonstones' cards: each character is drawn with the emblem of what
// its power does (its kind), and a dragon card with the stone it shows. This is a table of
// pictures, like the art printed on a card: the powers themselves are the engine's (F6, F7;
// dragonlair/games/fist/cards.py), and nothing here decides what a card does at the table.
// A custom character (F9) is drawn from the same parts: its kind from its power's steps (the
// primitives of docs/custom-characters.md), its stones from what its gain gives.

export type PowerKind = 'stones' | 'luck' | 'coins' | 'curse' | 'points' | 'steal' | 'lose' | 'buy' | 'copy' | 'custom';
export type Colour = 'red' | 'blue' | 'yellow';
export const COLOURS: readonly Colour[] = ['red', 'blue', 'yellow'];
/** the letter each stone carries (colour is never the only carrier) */
export const LETTER: Readonly<Record<Colour, string>> = { red: 'R', blue: 'B', yellow: 'Y' };

/** Every kind, in the order a legend lists them. */
export const KINDS: readonly PowerKind[] = ['stones', 'luck', 'coins', 'curse', 'points', 'steal', 'lose', 'buy', 'copy', 'custom'];

/** The built-in characters by id (F2): the emblem their card is drawn with. */
const BUILTIN: Readonly<Record<string, PowerKind>> = {
  // a dragon gives stones
  'red-dragon': 'stones', 'blue-dragon': 'stones', 'yellow-dragon': 'stones', 'ancient-dragon': 'stones',
  // stones drawn blind from a bag
  'two-headed-dragon': 'luck', 'rainbow-dragon': 'luck',
  // coins from the bank
  alchemist: 'coins', 'dwarf-4': 'coins', 'dwarf-5': 'coins', gnome: 'coins', fairy: 'coins', goldsmith: 'coins',
  // the Black Magic coin
  witch: 'curse',
  // stones (or coins) paid for points
  magician: 'points', sorcerer: 'points', wizard: 'points', enchantress: 'points',
  'sorcerers-apprentice': 'points', 'quack-wizard': 'points', necromancer: 'points',
  // taken from another player
  thief: 'steal', brigand: 'steal',
  // stones given up by everyone
  troll: 'lose',
  // stones bought
  merchant: 'buy',
  // another card's power
  ghost: 'copy', imp: 'copy', goblin: 'copy', doppelganger: 'copy',
};

/** The stone a built-in dragon card shows. */
const BUILTIN_STONES: Readonly<Record<string, readonly Colour[]>> = {
  'red-dragon': ['red'], 'blue-dragon': ['blue'], 'yellow-dragon': ['yellow'],
};

/** The kind of a power step of a custom character (its one primitive, or either/or). */
function stepKind(step: unknown): PowerKind | null {
  if (!step || typeof step !== 'object' || Array.isArray(step)) return null;
  const raw = step as Record<string, unknown>;
  if ('either' in raw) return 'points';
  const key = Object.keys(raw)[0];
  switch (key) {
    case 'gain': {
      const gain = raw.gain && typeof raw.gain === 'object' ? (raw.gain as Record<string, unknown>) : {};
      const coins = ['fairy', 'common', 'silver', 'amulet'].some((k) => Number(gain[k] ?? 0) > 0);
      const black = Number(gain.black ?? 0) > 0;
      if (!coins && !black && COLOURS.some((c) => Number(gain[c] ?? 0) > 0)) return 'stones';
      return black && !coins ? 'curse' : 'coins';
    }
    case 'gain_stone_choice': return 'stones';
    case 'pay_stones': case 'pay_all_stones': case 'necromancer': return 'points';
    case 'steal_from_second': case 'take_all_from': return 'steal';
    case 'copy_auctioned': case 'play_unauctioned': case 'keep_doppelganger': return 'copy';
    case 'buy_stones': return 'buy';
    case 'push_your_luck': case 'bag_draw': return 'luck';
    case 'lose_colour': return 'lose';
    default: return null;
  }
}

/** A custom character's kind: its first step's (a power of many steps is drawn by the first);
 * a power not given, or not understood, is drawn as a blank card's quill. */
export function kindOfPower(power: unknown): PowerKind {
  if (!Array.isArray(power)) return 'custom';
  for (const step of power) {
    const k = stepKind(step);
    if (k) return k;
  }
  return 'custom';
}

/** The stone colours a custom character's gains show (those it gives by name). */
export function stonesOfPower(power: unknown): Colour[] {
  if (!Array.isArray(power)) return [];
  const out = new Set<Colour>();
  for (const step of power) {
    const gain = step && typeof step === 'object' ? (step as Record<string, unknown>).gain : null;
    if (gain && typeof gain === 'object') for (const c of COLOURS) if (Number((gain as Record<string, unknown>)[c] ?? 0) > 0) out.add(c);
  }
  return COLOURS.filter((c) => out.has(c));
}

/** A table's custom characters' powers by id (the view's options.custom, F9). */
export function customPowers(options: Record<string, unknown> | null | undefined): Record<string, unknown> {
  const list = options?.custom;
  if (!Array.isArray(list)) return {};
  const out: Record<string, unknown> = {};
  for (const c of list as unknown[]) {
    if (c && typeof c === 'object' && typeof (c as { id?: unknown }).id === 'string') out[(c as { id: string }).id] = (c as { power?: unknown }).power;
  }
  return out;
}

export interface CardLook {
  kind: PowerKind;
  stones: Colour[];
}

/** How a card is drawn: a built-in one by its id, a table's custom one by its power. */
export function cardLook(id: string, custom: Readonly<Record<string, unknown>> = {}): CardLook {
  if (Object.hasOwn(custom, id)) return { kind: kindOfPower(custom[id]), stones: stonesOfPower(custom[id]) };
  return { kind: BUILTIN[id] ?? 'custom', stones: [...(BUILTIN_STONES[id] ?? [])] };
}

/** The built-in characters' ids that have a picture. */
export const BUILTIN_IDS: readonly string[] = Object.keys(BUILTIN);
