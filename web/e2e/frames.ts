// Records every WebSocket frame a page receives, for the secret scans.
import type { Page } from '@playwright/test';

export function recordFrames(page: Page): unknown[] {
  const frames: unknown[] = [];
  page.on('websocket', (ws) => {
    ws.on('framereceived', (f) => {
      if (typeof f.payload === 'string') {
        try {
          frames.push(JSON.parse(f.payload) as unknown);
        } catch {
          /* not JSON */
        }
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
