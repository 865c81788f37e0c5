// Dragon Master's floating grid on screen (docs/views.md, "Dragon Master"): cells a1..g7 in
// a 7 × 7 frame. Each player sees the grid from their own side: the first player (who owns
// the columns) as it is, row 7 on top; the second (who owns the rows) turned a quarter turn
// clockwise, so that their rows stand as columns in front of them. A spectator sees the
// first player's side. Only the part of the frame that holds cards or legal cells is shown.

export const COLUMNS = 'abcdefg';
export const CARDS = ['egg', 'emerald', 'sapphire', 'ruby'] as const;
export type CardId = (typeof CARDS)[number];
export const VALUE: Record<CardId, number> = { egg: 0, emerald: 1, sapphire: 2, ruby: 3 };

export interface Cell {
  /** column 0..6 (a..g) */
  c: number;
  /** row 1..7 */
  r: number;
}

export function parseCell(name: string): Cell {
  const c = COLUMNS.indexOf(name[0] ?? '');
  const r = Number(name.slice(1));
  if (c < 0 || !(r >= 1 && r <= 7)) throw new Error(`not a cell: ${name}`);
  return { c, r };
}

export function cellName(cell: Cell): string {
  return `${COLUMNS[cell.c]}${cell.r}`;
}

/** Where a cell is on screen (x left to right, y top to bottom, 0..6). */
export function toScreen(cell: Cell, rotated: boolean): { x: number; y: number } {
  return rotated ? { x: cell.r - 1, y: cell.c } : { x: cell.c, y: 7 - cell.r };
}

/** The cell at a screen position (the inverse of toScreen). */
export function fromScreen(x: number, y: number, rotated: boolean): Cell {
  return rotated ? { c: y, r: x + 1 } : { c: x, r: 7 - y };
}

/** Whether this seat sees the grid turned (the second player does). */
export function isRotated(seat: number | null): boolean {
  return seat === 1;
}

export interface Layout {
  /** rows of cell names, top to bottom, each left to right */
  rows: string[][];
  x0: number;
  y0: number;
}

/** The screen rectangle around every placed card and legal cell (d4 before any). */
export function layout(cells: readonly string[], rotated: boolean): Layout {
  const pts = (cells.length ? cells : ['d4']).map((n) => toScreen(parseCell(n), rotated));
  const xs = pts.map((p) => p.x);
  const ys = pts.map((p) => p.y);
  const x0 = Math.min(...xs);
  const x1 = Math.max(...xs);
  const y0 = Math.min(...ys);
  const y1 = Math.max(...ys);
  const rows: string[][] = [];
  for (let y = y0; y <= y1; y++) {
    const row: string[] = [];
    for (let x = x0; x <= x1; x++) row.push(cellName(fromScreen(x, y, rotated)));
    rows.push(row);
  }
  return { rows, x0, y0 };
}

export interface Box {
  columns: string;
  rows: number[];
}

/** The line score (as it stands) of the line through a cell: columns are scored from the
 * box's left edge, rows from its bottom edge; null outside the box. */
export function lineScore(kind: 'columns' | 'rows', cell: Cell, box: Box | null, scores: { columns: number[]; rows: number[] }): number | null {
  if (!box) return null;
  if (kind === 'columns') {
    const i = cell.c - COLUMNS.indexOf(box.columns[0] ?? 'a');
    return i >= 0 && i < box.columns.length ? (scores.columns[i] ?? null) : null;
  }
  const i = cell.r - Math.min(...box.rows);
  return i >= 0 && i < box.rows.length ? (scores.rows[i] ?? null) : null;
}

export interface Comparison {
  /** the i-th lowest line of each player */
  lines: { which: number; a: number; b: number; decides: boolean }[];
  winner: number | null;
}

/** The final comparison of a round (M4): each player's four lines sorted from the lowest,
 * compared element by element; the first difference decides, the higher wins. Computed
 * from the round's published scores and checked against the server's winner and
 * decided_at (the server is the judge: on disagreement its word is shown). */
export function compare(columns: readonly number[], rows: readonly number[], winner: number | null, decidedAt: number | null): Comparison {
  const a = [...columns].sort((x, y) => x - y);
  const b = [...rows].sort((x, y) => x - y);
  const lines = a.map((v, i) => ({ which: i, a: v, b: b[i] ?? 0, decides: i === decidedAt }));
  return { lines, winner };
}

/** The sentence that explains a finished round (M4), as the engine's own event says it: the
 * catalogue code and its params (the game log and the rounds panel read the same). A round
 * without a deciding line is a drawn one. */
export function explain(round: number, columns: readonly number[], rows: readonly number[], winner: number | null, decidedAt: number | null): { code: string; params: Record<string, unknown> } {
  if (winner === null || decidedAt === null) return { code: 'master.round.drawn', params: { round } };
  const a = [...columns].sort((x, y) => x - y)[decidedAt] ?? 0;
  const b = [...rows].sort((x, y) => x - y)[decidedAt] ?? 0;
  return { code: 'master.round.won', params: { round, seat: winner, at: decidedAt, a, b } };
}

/** The coordinates along the edges of a layout, as the cells are named (a1..g7): above each
 * screen column and left of each screen row. The first player reads letters above and row
 * numbers beside; the second, whose grid is turned, row numbers above and letters beside. */
export function edges(l: Layout, rotated: boolean): { top: string[]; left: string[] } {
  const first = l.rows[0] ?? [];
  const top = first.map((n) => (rotated ? n.slice(1) : n[0] ?? ''));
  const left = l.rows.map((row) => (rotated ? (row[0] ?? '')[0] ?? '' : (row[0] ?? '').slice(1)));
  return { top, left };
}

/** What a finished round's line shows in the comparison (M4): `decides` for the line at the
 * deciding place of the sorted list, `equal` for the lines below it (they were equal on both
 * sides), null for the rest. Lines of equal score take their places in the sorted list from
 * the left (the box's first column, its bottom row). */
export function lineMarks(scores: readonly number[], decidedAt: number | null): ('decides' | 'equal' | null)[] {
  const order = scores.map((v, i) => ({ v, i })).sort((a, b) => a.v - b.v || a.i - b.i);
  const marks: ('decides' | 'equal' | null)[] = scores.map(() => null);
  const upTo = decidedAt ?? scores.length;
  order.forEach(({ i }, rank) => {
    if (rank < upTo) marks[i] = 'equal';
    else if (rank === decidedAt) marks[i] = 'decides';
  });
  return marks;
}

/** The grid of a finished round from its placements: the cards by cell and their box. */
export function roundGrid(placements: readonly { card: string; cell: string }[]): { grid: Record<string, CardId>; box: Box | null } {
  const grid: Record<string, CardId> = {};
  for (const p of placements) grid[p.cell] = p.card as CardId;
  const cells = Object.keys(grid).map(parseCell);
  if (!cells.length) return { grid, box: null };
  const cs = [...new Set(cells.map((c) => c.c))].sort((a, b) => a - b);
  const rs = [...new Set(cells.map((c) => c.r))].sort((a, b) => a - b);
  const columns = COLUMNS.slice(cs[0], (cs.at(-1) ?? 0) + 1);
  const rows = Array.from({ length: (rs.at(-1) ?? 0) - (rs[0] ?? 0) + 1 }, (_, i) => (rs[0] ?? 0) + i);
  return { grid, box: { columns, rows } };
}
