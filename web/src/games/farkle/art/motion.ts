// Whether Farkle's table moves: the reader's setting (lib/settings.svelte.ts; the app adds the
// class `no-anim` when it is off) and the system's reduced motion. Every move is short (under
// 600 ms), only drawn after the state it shows is on screen, and finished at once by a click,
// a key or the next update (`finishMoves`).
import { settings } from '../../../lib/settings.svelte';

/** Longest any move of the table runs (ms). */
export const MOVE_MS = 450;

export function reducedMotion(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** Whether moves are drawn now. */
export function moving(): boolean {
  return settings.animations && !reducedMotion();
}

/** Ends every running CSS move under `root` (each jumps to its end state). */
export function finishMoves(root: Element | null | undefined): void {
  if (!root || typeof root.getAnimations !== 'function') return;
  for (const a of root.getAnimations({ subtree: true })) {
    try {
      a.finish();
    } catch {
      a.cancel();
    }
  }
}
