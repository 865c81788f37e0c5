import { describe, expect, it } from 'vitest';
import type { View } from '../gen/protocol';
import { axisChart, chartPoints, eventsUpTo, signed, replayTable, stepForKey, type ReplayStep } from './history';

const ev = (seq: number) => ({ seq, code: `x.e${seq}`, params: {} }) as unknown as ReplayStep['events'][number];

describe('stepping through a replay', () => {
  it('moves by one, by ten and to either end, never past them', () => {
    expect(stepForKey('ArrowRight', 3, 5)).toBe(4);
    expect(stepForKey('ArrowRight', 5, 5)).toBe(5);
    expect(stepForKey('ArrowLeft', 0, 5)).toBe(0);
    expect(stepForKey('PageDown', 3, 50)).toBe(13);
    expect(stepForKey('PageUp', 3, 50)).toBe(0);
    expect(stepForKey('Home', 30, 50)).toBe(0);
    expect(stepForKey('End', 3, 50)).toBe(50);
    expect(stepForKey('a', 3, 50)).toBeNull();
  });

  it('shows the events of the steps taken so far, in order', () => {
    const steps: ReplayStep[] = [
      { seq: 0, seat: -1, events: [ev(0), ev(1)] },
      { seq: 1, seat: 0, events: [] },
      { seq: 2, seat: 1, events: [ev(2)] },
    ];
    expect(eventsUpTo(steps, 0)).toEqual([]);
    expect(eventsUpTo(steps, 2).map((e) => e.seq)).toEqual([0, 1]);
    expect(eventsUpTo(steps, 3).map((e) => e.seq)).toEqual([0, 1, 2]);
  });

  it('draws a step read-only: no legal actions, finished only at the end', () => {
    const view = { game: 'master', legal: { cells: ['a1'] }, to_move: [0] } as unknown as View;
    const mid = replayTable(view, 0, 3, 10, []);
    expect(mid.view?.legal).toBeNull();
    expect(mid.status).toBe('running');
    expect(mid.seat).toBe(0);
    expect(replayTable(view, null, 10, 10, []).status).toBe('finished');
    expect((view as unknown as { legal: unknown }).legal).not.toBeNull(); // the input is not changed
  });
});

describe('the rating chart', () => {
  it('puts the highest value at the top and spans the width', () => {
    const pts = chartPoints([10, 20, 15], 100, 50, 5).split(' ').map((p) => p.split(',').map(Number));
    expect(pts[0]).toEqual([5, 45]);
    expect(pts[1]).toEqual([50, 5]);
    expect(pts[2]).toEqual([95, 25]);
  });

  it('handles one point and equal values', () => {
    expect(chartPoints([], 100, 50)).toBe('');
    expect(chartPoints([7], 100, 50)).toBe('50.0,25.0');
    expect(chartPoints([3, 3], 100, 50, 0)).toBe('0.0,25.0 100.0,25.0');
  });
});

describe('a rating change', () => {
  it('always carries its sign, rounded to one decimal', () => {
    expect(signed(1.26)).toBe('+1.3');
    expect(signed(-0.44)).toBe('-0.4');
    expect(signed(1.26, 'de')).toBe('+1,3');
    expect(signed(-0.44, 'de')).toBe('-0,4');
    expect(signed(0)).toBe('+0.0');
    expect(signed(-0.04)).toBe('+0.0'); // rounds to nothing: no "-0.0"
    expect(signed(-12.96)).toBe('-13.0');
  });
});

describe('axisChart (issue 25: charts with axes and a scale)', () => {
  it('puts the lowest and highest value on the scale and the games along', () => {
    const c = axisChart([10, 20, 15], 240, 90);
    expect(c.ticks.map((t) => t.value)).toEqual([10, 20]);
    expect(c.count).toBe(3);
    const ys = c.points.split(' ').map((p) => Number(p.split(',')[1]));
    expect(ys[0]).toBe(c.box.bottom);
    expect(ys[1]).toBe(c.box.top);
  });
  it('gives a flat series a scale around it', () => {
    expect(axisChart([5, 5], 240, 90).ticks.map((t) => t.value)).toEqual([4, 6]);
  });
});
