// Confirm a final move (issue 22): with the setting on (the default), the first click on a
// move that cannot be taken back (a Master placement, a Farkle bank or battle choice, a Fist
// power decision) only stages it; "Confirm" (or Enter, or a second click on the same move)
// sends it, "Cancel" (or Escape) drops it. With the setting off the first click sends. Sealed
// bids already work this way (the coins are set first, then "Submit"). Pure: the screens hold
// the state through confirm.svelte.ts and show it with ConfirmBar.svelte.

export interface Staged {
  /** the action text that will be sent (one of the view's legal actions) */
  action: string;
  /** the move in words, as the screen labels it */
  label: string;
  /** the table's seq when it was staged: an update meanwhile drops it */
  seq: number;
}

export interface Step {
  staged: Staged | null;
  /** the action to send now, if any */
  send: string | null;
}

/** A click on a final move. */
export function choose(staged: Staged | null, move: Staged, confirmOn: boolean): Step {
  if (!confirmOn) return { staged: null, send: move.action };
  // the second click on the same move confirms it
  if (staged && staged.action === move.action && staged.seq === move.seq) return { staged: null, send: move.action };
  return { staged: move, send: null };
}

/** "Confirm": the staged move is sent. */
export function confirmStaged(staged: Staged | null): Step {
  return { staged: null, send: staged ? staged.action : null };
}

/** A staged move outlives no update of the table: the position it was chosen in is gone. */
export function stillStaged(staged: Staged | null, seq: number): Staged | null {
  return staged && staged.seq === seq ? staged : null;
}
