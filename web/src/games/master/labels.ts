// Master's options in words for hints and analysis (lib/coach.ts): a card and its cell, found
// in the view's placement form (place.ts), not read out of the action's text.
import type { MasterLegal } from '../../gen/view-master';
import type { GameLabeller } from '../../lib/coach';
import { placement } from './place';

export const labeller: GameLabeller = (legal, render) => (action) => {
  const p = placement(legal as MasterLegal | null, action);
  return p ? render('web.hint.master.place', { card: render(`master.card.${p.card}`), cell: p.cell }) : null;
};
