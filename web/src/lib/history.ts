// Pure helpers of the replay, leaderboard and profile screens (tested in history.test.ts):
// stepping through a replay, the events shown up to a step, the read-only table a game screen
// draws a step with, and the rating chart's scaling. No rule is decided here: every view comes
// from the server (GET /api/tables/{id}/replay?at=N).
import type { EventModel } from '../gen/protocol';
import type { View } from '../gen/protocol';
import type { TableState } from './protocol';
import { initialState } from './protocol';
import { decimal } from './format';
import type { ReplayStep } from './api';

/** one logged action of a replay, as the server sends it (src/gen/openapi.ts) */
export type { ReplayStep };

/** The step a key takes the replay to (``null``: the key is not the replay's). */
export function stepForKey(key: string, at: number, total: number): number | null {
  const to = (n: number) => Math.max(0, Math.min(total, n));
  switch (key) {
    case 'ArrowLeft':
      return to(at - 1);
    case 'ArrowRight':
      return to(at + 1);
    case 'PageUp':
      return to(at - 10);
    case 'PageDown':
      return to(at + 10);
    case 'Home':
      return 0;
    case 'End':
      return total;
    default:
      return null;
  }
}

/** Every event of the first ``at`` steps, in order. */
export function eventsUpTo(steps: readonly ReplayStep[], at: number): EventModel[] {
  return steps.slice(0, Math.max(0, at)).flatMap((s) => s.events);
}

/** A game screen's table for one step of a replay: the server's view for the perspective,
 * with no legal actions (a replay is watched, not played), and the events so far. */
export function replayTable(view: View, perspective: number | null, at: number, total: number,
                            events: EventModel[]): TableState {
  return {
    ...initialState(),
    phase: 'live',
    seat: perspective,
    seq: at,
    status: at >= total ? 'finished' : 'running',
    view: { ...view, legal: null } as View,
    events,
  };
}

/** SVG polyline points for ``values`` in a ``width`` x ``height`` box (a margin of ``pad``);
 * the highest value at the top. One value sits in the middle; equal values on a middle line. */
export function chartPoints(values: readonly number[], width: number, height: number, pad = 4): string {
  if (values.length === 0) return '';
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const span = hi - lo;
  const x = (i: number) => (values.length === 1 ? width / 2 : pad + (i * (width - 2 * pad)) / (values.length - 1));
  const y = (v: number) => (span === 0 ? height / 2 : pad + ((hi - v) * (height - 2 * pad)) / span);
  return values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
}

/** A rating change with its sign and one decimal ("+1.3", "-0.4", "+0.0"): the end screen's
 * delta, so that a loss never reads as a gain; German "+1,3". */
export function signed(delta: number, lang = 'en'): string {
  const r = Math.round(delta * 10) / 10;
  return `${r < 0 ? '-' : '+'}${decimal(Math.abs(r), 1, lang)}`;
}

/** A line chart with axes (the rating over the games): the plot area inside margins for the
 * scale's labels, the points, and the scale: its lowest and highest value at their heights
 * (a flat series gets a scale of ±1 around it). x is the game's number, 1 to n. */
export interface AxisChart {
  points: string;
  box: { left: number; top: number; right: number; bottom: number };
  ticks: { value: number; y: number }[];
  count: number;
}

export function axisChart(values: readonly number[], width: number, height: number): AxisChart {
  const box = { left: 40, top: 8, right: width - 8, bottom: height - 20 };
  let lo = values.length ? Math.min(...values) : 0;
  let hi = values.length ? Math.max(...values) : 1;
  if (hi - lo < 1e-9) {
    lo -= 1;
    hi += 1;
  }
  const n = values.length;
  const x = (i: number) => (n <= 1 ? (box.left + box.right) / 2 : box.left + (i * (box.right - box.left)) / (n - 1));
  const y = (v: number) => box.bottom - ((v - lo) * (box.bottom - box.top)) / (hi - lo);
  return {
    points: values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' '),
    box,
    ticks: [lo, hi].map((value) => ({ value, y: y(value) })),
    count: n,
  };
}
