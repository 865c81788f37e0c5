// Records every WebSocket frame a page receives, for the secret scans.
import type { Page } from '@playwright/test';
import { applyDelta, rebased } from '../src/lib/protocol';

type Message = Record<string, unknown>;

export function recordFrames(page: Page): unknown[] {
  const frames: unknown[] = [];
  page.on('websocket', (ws) => {
    // an update sent as a delta (docs/protocol.md, "Deltas") is kept as the whole update it
    // stands for: the view it leaves the page holding (which holds all the delta carries)
    let held: Message | null = null;
    let seat: unknown = null;
    ws.on('framereceived', (f) => {
      if (typeof f.payload === 'string') {
        let msg: Message;
        try {
          msg = JSON.parse(f.payload) as Message;
        } catch {
          return; /* not JSON */
        }
        if (msg.type === 'welcome' || msg.type === 'update') {
          if ('seat' in msg) seat = msg.seat;
          if (msg.view) held = msg.view as Message;
          else if (msg.delta && held) {
            held = applyDelta(rebased(held), msg.delta);
            msg = { ...msg, seat, view: held, delta: undefined };
          }
        }
        frames.push(msg);
      }
    });
  });
  return frames;
}

/** Every object nested anywhere in a value. */
export function* objects(value: unknown): Generator<Record<string, unknown>> {
  if (Array.isArray(value)) for (const v of value) yield* objects(v);
  else if (value && typeof value === 'object') {
    yield value as Record<string, unknown>;
    for (const v of Object.values(value)) yield* objects(v);
  }
}
