// The staged final move of one game screen (the pure steps are in confirm.ts): each screen
// makes one with its `act` and the reader's setting, calls `choose` where a final move is
// clicked, and shows <ConfirmBar> for it.
import { choose, confirmStaged, stillStaged, type Staged } from './confirm';
import { settings } from './settings.svelte';

export class MoveConfirm {
  staged = $state<Staged | null>(null);

  constructor(private readonly send: (action: string) => void) {}

  /** A click on a final move at the table's `seq`: staged, or sent (setting off, or the
   * second click on the staged move). */
  choose(action: string, label: string, seq: number): void {
    this.apply(choose(stillStaged(this.staged, seq), { action, label, seq }, settings.confirm));
  }

  confirm(): void {
    this.apply(confirmStaged(this.staged));
  }

  cancel(): void {
    this.staged = null;
  }

  /** Whether `action` is the move waiting for its confirm. */
  is(action: string): boolean {
    return this.staged?.action === action;
  }

  /** The table moved on (a new seq): a move staged before is dropped. */
  seen(seq: number): void {
    const kept = stillStaged(this.staged, seq);
    if (kept !== this.staged) this.staged = kept;
  }

  private apply(step: { staged: Staged | null; send: string | null }): void {
    this.staged = step.staged;
    if (step.send !== null) this.send(step.send);
  }
}
