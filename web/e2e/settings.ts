// The reader's settings (web/src/lib/settings.svelte.ts, localStorage) as a test wants them.
import type { BrowserContext } from '@playwright/test';

/** Final moves are sent on the first click (the "confirm" setting off) in every page of
 * `ctx`, unless a page of it set the setting itself: the specs that play whole games click
 * each move once. e2e/alerts.spec.ts tests the confirm itself, both ways. */
export async function noConfirm(ctx: BrowserContext): Promise<void> {
  await ctx.addInitScript(() => {
    const key = 'dragonlair.settings';
    let v: Record<string, unknown> = {};
    try {
      v = JSON.parse(localStorage.getItem(key) ?? '{}') as Record<string, unknown>;
    } catch {
      /* start afresh */
    }
    if (!('confirm' in v)) localStorage.setItem(key, JSON.stringify({ ...v, confirm: false }));
  });
}
