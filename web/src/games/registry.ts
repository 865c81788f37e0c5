// The game screens, discovered as the server discovers its plugins: every folder
// web/src/games/<game>/ with a `<Name>Screen.svelte` is the screen of the game <game>, loaded
// on demand (each is its own chunk). A game without one (a game installed as its own package,
// docs/new-game.md) is drawn by the generic screen from its views.
import type { Component } from 'svelte';
import type { TableState } from '../lib/protocol';

export interface GameScreenProps {
  table: TableState;
  /** the seats' display names, by seat */
  names: string[];
  /** sends an action text taken from the view's `legal` description */
  act: (action: string) => void;
  /** the table's own cards, which the catalogue does not know (a Farkle deck file's, rule
   * D8.5), by id: their names and texts in the reader's language */
  cards?: Readonly<Record<string, CardWords>>;
}

/** A card's name and text, in the reader's language. */
export interface CardWords {
  name: string;
  text: string;
}

type Loader = () => Promise<{ default: Component<GameScreenProps> }>;

const found = import.meta.glob<{ default: Component<GameScreenProps> }>('./*/*Screen.svelte');

/** The games with a screen of their own, by id: the folder of their screen. */
export const screens: Record<string, Loader> = Object.fromEntries(
  Object.entries(found).map(([path, load]) => [path.split('/')[1] ?? path, load]),
);

export function hasOwnScreen(game: string): boolean {
  return Object.hasOwn(screens, game);
}

export function screenFor(game: string): Loader {
  return screens[game] ?? (() => import('../lib/GenericScreen.svelte'));
}
