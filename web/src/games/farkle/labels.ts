// Farkle's options in words for hints and analysis (lib/coach.ts): as the screen's choices.
import type { FarkleLegal } from '../../gen/view-farkle';
import type { GameLabeller } from '../../lib/coach';
import { farkleChoices } from './choices';

export const labeller: GameLabeller = (legal, render, names) => {
  const byAction = new Map(farkleChoices(legal as FarkleLegal | null, render, names).map((c) => [c.action, c.label]));
  return (action) => byAction.get(action) ?? null;
};
