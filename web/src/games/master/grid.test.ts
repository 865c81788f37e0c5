import { describe, expect, it } from 'vitest';
import { compare, edges, explain, fromScreen, isRotated, layout, lineMarks, lineScore, parseCell, roundGrid, toScreen } from './grid';

describe('the grid from each side', () => {
  it('the first player sees it as it is, row 7 on top', () => {
    expect(toScreen(parseCell('a7'), false)).toEqual({ x: 0, y: 0 });
    expect(toScreen(parseCell('g1'), false)).toEqual({ x: 6, y: 6 });
  });
  it('the second player sees it a quarter turn round: their rows stand as columns', () => {
    expect(isRotated(1)).toBe(true);
    expect(isRotated(0)).toBe(false);
    expect(isRotated(null)).toBe(false);
    // a row (d3, d4, d5...) of the frame is one screen column for the second player
    const xs = ['a3', 'b3', 'c3', 'd3'].map((c) => toScreen(parseCell(c), true).x);
    expect(new Set(xs).size).toBe(1);
    const ys = ['a3', 'b3', 'c3', 'd3'].map((c) => toScreen(parseCell(c), true).y);
    expect(ys).toEqual([0, 1, 2, 3]);
  });
  it('fromScreen inverts toScreen on every cell, both ways', () => {
    for (const rotated of [false, true])
      for (const col of 'abcdefg')
        for (let r = 1; r <= 7; r++) {
          const cell = parseCell(`${col}${r}`);
          const p = toScreen(cell, rotated);
          expect(fromScreen(p.x, p.y, rotated)).toEqual(cell);
        }
  });
  it('shows only the rectangle around cards and legal cells', () => {
    expect(layout([], false).rows).toEqual([['d4']]);
    expect(layout(['d4', 'd5', 'e4'], false).rows).toEqual([['d5', 'e5'], ['d4', 'e4']]);
    expect(layout(['d4', 'd5', 'e4'], true).rows).toEqual([['d4', 'd5'], ['e4', 'e5']]);
  });
  it('reads the line score of a cell from the box edges', () => {
    const box = { columns: 'cde', rows: [3, 4] };
    const scores = { columns: [1, 2, 3, 0], rows: [10, 20, 0, 0] };
    expect(lineScore('columns', parseCell('d4'), box, scores)).toBe(2);
    expect(lineScore('columns', parseCell('b4'), box, scores)).toBeNull();
    expect(lineScore('rows', parseCell('c4'), box, scores)).toBe(20);
    expect(lineScore('rows', parseCell('c5'), box, scores)).toBeNull();
  });
  it('lays out the final comparison from the lowest line, the server naming the decider', () => {
    const cmp = compare([30, 3, 10, 100], [3, 31, 10, 100], 1, 2);
    expect(cmp.lines.map((l) => [l.a, l.b, l.decides])).toEqual([[3, 3, false], [10, 10, false], [30, 31, true], [100, 100, false]]);
  });
  it('explains a round as the engine does: the deciding lines of each player, or a drawn round (M4)', () => {
    // the third-lowest lines decide, 30 of the columns against 31 of the rows
    expect(explain(2, [30, 3, 10, 100], [3, 31, 10, 100], 1, 2)).toEqual({ code: 'master.round.won', params: { round: 2, seat: 1, at: 2, a: 30, b: 31 } });
    expect(explain(1, [12, 30, 31, 30], [15, 5, 13, 6], 0, 0)).toEqual({ code: 'master.round.won', params: { round: 1, seat: 0, at: 0, a: 12, b: 5 } });
    expect(explain(3, [1, 2, 3, 4], [4, 3, 2, 1], null, null)).toEqual({ code: 'master.round.drawn', params: { round: 3 } });
  });

  it('labels the edges as the cells are named, so that "c5" is found from its letter and number', () => {
    const cells = ['c4', 'c5', 'd4', 'd5', 'e5', 'b4'];
    // the first player: letters above, row numbers beside (row 7 on top)
    const a = layout(cells, false);
    expect(edges(a, false)).toEqual({ top: ['b', 'c', 'd', 'e'], left: ['5', '4'] });
    // the second player sees the grid turned: row numbers above, letters beside
    const b = layout(cells, true);
    expect(edges(b, true)).toEqual({ top: ['4', '5'], left: ['b', 'c', 'd', 'e'] });
    // every cell on screen is named by its column's and its row's labels, from both sides
    for (const [l, rotated] of [[a, false], [b, true]] as const) {
      const e = edges(l, rotated);
      l.rows.forEach((row, y) => row.forEach((name, x) => expect(rotated ? `${e.left[y]}${e.top[x]}` : `${e.top[x]}${e.left[y]}`).toBe(name)));
    }
  });
  it('marks the deciding line and the equal ones below it on each side (M4)', () => {
    // columns 30, 3, 10, 100 against rows 3, 31, 10, 100: the third-lowest decides
    expect(lineMarks([30, 3, 10, 100], 2)).toEqual(['decides', 'equal', 'equal', null]);
    expect(lineMarks([3, 31, 10, 100], 2)).toEqual(['equal', 'decides', 'equal', null]);
    // equal scores take their places from the box's first line
    expect(lineMarks([5, 5, 7, 5], 1)).toEqual(['equal', 'decides', null, null]);
    // a drawn round: every line was equal
    expect(lineMarks([1, 2, 3, 4], null)).toEqual(['equal', 'equal', 'equal', 'equal']);
  });
  it('rebuilds a finished round\'s grid and box from its placements', () => {
    const placements = ['d4', 'd5', 'c5', 'b5', 'e4'].map((cell, i) => ({ seat: i % 2, card: i % 2 ? 'ruby' : 'egg', cell }));
    const g = roundGrid(placements);
    expect(g.grid).toEqual({ d4: 'egg', d5: 'ruby', c5: 'egg', b5: 'ruby', e4: 'egg' });
    expect(g.box).toEqual({ columns: 'bcde', rows: [4, 5] });
    expect(roundGrid([]).box).toBeNull();
  });
});
