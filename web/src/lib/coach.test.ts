import { describe, expect, it } from 'vitest';
import { formatValue, mistakes, ranked, type AnalysisData, type HintOption } from './coach';

describe('hints on screen', () => {
  it('formats soldiers and win chances, and a missing value', () => {
    expect(formatValue(450, 'soldiers')).toBe('450');
    expect(formatValue(12.345, 'soldiers')).toBe('12.3');
    expect(formatValue(0.4567, 'win_chance')).toBe('45.7 %');
    expect(formatValue(null, 'soldiers')).toBe('—');
  });

  it('puts the bot\'s choice first, then the others by value', () => {
    const opts: HintOption[] = [
      { action: 'a', value: 3, best: false, loss: 2 },
      { action: 'b', value: null, best: false, loss: null },
      { action: 'c', value: 5, best: true, loss: 0 },
      { action: 'd', value: 4, best: false, loss: 1 },
    ];
    expect(ranked(opts).map((o) => o.action)).toEqual(['c', 'd', 'a', 'b']);
  });
});

describe('analysis on screen', () => {
  it('lists the named mistakes in order, without free moves', () => {
    const d = (index: number, loss: number | null) => ({ index, turn: 1, played: 'x', best: 'y', loss, unit: 'soldiers', exact: true, win_chance: null, options: [] });
    const data: AnalysisData = {
      game: 'farkle', seat: 0, complete: true, decisions_total: 3, loss_totals: {}, win_chance: [],
      mistakes: [7, 3, 5], decisions: [d(3, 50), d(5, 0), d(7, 120)],
    };
    expect(mistakes(data).map((m) => m.index)).toEqual([7, 3]);
  });
});
