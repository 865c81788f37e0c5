// Farkle's options in words for hints and analysis (lib/coach.ts): as the screen's choices.
import type { FarkleLegal } from '../../gen/view-farkle';
import type { GameLabeller } from '../../lib/coach';
import { farkleChoices } from './choices';
import { keepRole } from './dice';

// in a Skirmish a keep adds attack or defence, not soldiers: the role comes from the view's
// public part, as on the screen
export const labeller: GameLabeller = (legal, render, names, pub) => {
  const role = keepRole(pub as Parameters<typeof keepRole>[0]);
  const byAction = new Map(farkleChoices(legal as FarkleLegal | null, render, names, role).map((c) => [c.action, c.label]));
  return (action) => byAction.get(action) ?? null;
};
