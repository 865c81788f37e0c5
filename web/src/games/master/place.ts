// Dragon Master's placements as the view writes them (M3): the view's `legal` names the cards
// and cells, and its `form` (lib/forms.ts) the text of each placement: the client picks a card
// and a cell and reads the text, or finds the card and cell of a text; it writes no word itself.
import type { MasterLegal } from '../../gen/view-master';
import { formChoice, formText } from '../../lib/forms';

/** The text of placing `card` on `cell`; null when that is not a legal placement now. */
export function placeAction(legal: MasterLegal | null | undefined, card: string, cell: string): string | null {
  if (!legal?.form) return null;
  const c = (legal.cards as readonly string[]).indexOf(card);
  const x = legal.cells.indexOf(cell);
  return c < 0 || x < 0 ? null : formText(legal.form, { card: c, cell: x });
}

/** The card and cell of a placement's text; null when the view names no such placement. */
export function placement(legal: MasterLegal | null | undefined, action: string): { card: string; cell: string } | null {
  if (!legal?.form) return null;
  const choice = formChoice(legal.form, action);
  const card = choice ? legal.cards[choice.card ?? -1] : undefined;
  const cell = choice ? legal.cells[choice.cell ?? -1] : undefined;
  return card !== undefined && cell !== undefined ? { card, cell } : null;
}
