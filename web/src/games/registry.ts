// One screen per game, loaded on demand (each is its own chunk): web/src/games/<game>/.
// A game without its own screen yet gets the generic one (legal actions as buttons).
import type { Component } from 'svelte';
import type { TableState } from '../lib/protocol';

export interface GameScreenProps {
  table: TableState;
  /** the seats' display names, by seat */
  names: string[];
  /** sends an action text taken from the view's `legal` description */
  act: (action: string) => void;
}

type Loader = () => Promise<{ default: Component<GameScreenProps> }>;

const screens: Record<string, Loader> = {
  master: () => import('./master/MasterScreen.svelte'),
  fist: () => import('./fist/FistScreen.svelte'),
  farkle: () => import('./farkle/FarkleScreen.svelte'),
};

export function screenFor(game: string): Loader {
  return screens[game] ?? (() => import('../lib/GenericScreen.svelte'));
}
