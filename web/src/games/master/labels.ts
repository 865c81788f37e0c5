// Master's options in words for hints and analysis (lib/coach.ts): a card and its cell.
import type { GameLabeller } from '../../lib/coach';

const MASTER_PLACE = /^place ([a-z]+) ([a-z]\d+)$/;

export const labeller: GameLabeller = (_legal, render) => (action) => {
  const m = MASTER_PLACE.exec(action);
  return m ? render('web.hint.master.place', { card: render(`master.card.${m[1]}`), cell: m[2] }) : null;
};
