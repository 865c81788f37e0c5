// The cards' drawing (issue 25): each colour carries a pattern of its own, so that no card is
// told from another by colour alone, and every mark stays inside the card's rounded corners.
import { describe, expect, it } from 'vitest';
import { catalogue } from '../../testkit';
import { CARDS } from '../grid';
import { DRAWING, FILL, pattern, scales } from './shapes';

/** Every number of a path: its points' coordinates, in pairs where the path is absolute. */
const numbers = (d: string) => (d.match(/-?\d+(\.\d+)?/g) ?? []).map(Number);

describe('the cards drawn', () => {
  it('gives each card its own colour and its own pattern', () => {
    expect(new Set(CARDS.map((id) => FILL[id])).size).toBe(4);
    const marks = CARDS.map((id) => pattern(id));
    expect(new Set(marks).size).toBe(4);
    // dots, slanted lines, waves, upright bars: the kinds of marks differ, not only where they lie
    expect(marks[0]).toMatch(/a 1\.2/); // egg: dots
    expect(marks[1]).not.toMatch(/[aQ]/); // emerald: straight slanted lines
    expect(marks[2]).toMatch(/Q/); // sapphire: waves
    for (const seg of marks[3]!.split('M').filter(Boolean)) {
      const [x0, , x1] = numbers(seg);
      expect(x0).toBe(x1); // ruby: upright bars
    }
  });
  it('keeps every mark of a pattern inside the card (inset from its rounded corners)', () => {
    for (const id of CARDS) {
      if (id === 'egg') continue; // dots: relative arcs, checked by their centres below
      for (const v of numbers(pattern(id))) {
        expect(v).toBeGreaterThanOrEqual(0);
        expect(v).toBeLessThanOrEqual(60);
      }
    }
    for (const seg of pattern('egg').split('M').filter(Boolean)) {
      const [x, y] = numbers(seg);
      expect(x!).toBeGreaterThanOrEqual(3);
      expect(x! + 2.4).toBeLessThanOrEqual(57);
      expect(y!).toBeLessThanOrEqual(57);
    }
    expect(numbers(scales()).every((v) => v >= 0 && v <= 84)).toBe(true);
  });
  it('draws a dragon for each colour and an egg for the egg, within the card', () => {
    for (const id of CARDS) {
      expect(DRAWING[id].length).toBeGreaterThan(0);
      for (const s of DRAWING[id]) for (const v of numbers(s.d)) expect(Math.abs(v)).toBeLessThanOrEqual(60);
    }
    // the dragons differ from one another
    expect(new Set(CARDS.map((id) => DRAWING[id].map((s) => s.d).join())).size).toBe(4);
  });
  it('names every card and every word of the table in English and German', () => {
    for (const lang of ['en', 'de']) {
      const m = catalogue(lang).messages;
      for (const id of CARDS) expect(m[`master.card.${id}`], `${lang} ${id}`).toBeTruthy();
      for (const code of ['to_move', 'you', 'away', 'cell_last', 'compare', 'line_scores']) expect(m[`master.ui.${code}`], `${lang} ${code}`).toBeTruthy();
    }
    expect(catalogue('de').messages['master.ui.compare']).toMatch(/Reihe/);
  });
});
