// Dragon Master's cards drawn by the project (issue 25): flat shapes, a dark outline, each
// colour with its own pattern too (a colour-blind reader tells the cards by value and
// pattern, never by colour alone). Everything here is geometry in a 60 × 60 box; the Svelte
// components (CardFace, CardArt) draw it. No word and no rule: the value on a card is M1's.
import type { CardId } from '../grid';

/** The fill of each card: the palette's Okabe-Ito colours (web/src/app.css). */
export const FILL: Record<CardId, string> = {
  egg: 'var(--egg)',
  emerald: 'var(--emerald)',
  sapphire: 'var(--sapphire)',
  ruby: 'var(--ruby)',
};

/** One shape of a drawing. `tube`: a line drawn as an outlined tube of that width (the
 * outline 2 units wider each side); else a filled, outlined path. */
export interface Shape {
  d: string;
  /** 'body': the card's colour; 'ink': the outline colour; 'light': pale; 'flame': yellow */
  fill: 'body' | 'ink' | 'light' | 'flame' | 'none';
  tube?: number;
}

const HEAD = 'M34 23 Q 38 17.5 45 19.5 L 51 22.5 Q 51.5 25.5 47 26.5 L 40 27.5 Q 34.5 27.5 34 23 Z';
const EYE = 'M42.2 21.2 a 1.3 1.3 0 1 0 0.1 0 Z';
const BODY = 'M17 44 Q 18 35 28 35.5 Q 37 36 37.5 43 Q 37 49.5 27 49.5 Q 17.5 49.5 17 44 Z';

/** The dragon of each card; the egg is an egg. */
export const DRAWING: Record<CardId, Shape[]> = {
  egg: [
    { d: 'M30 13 C 41 13 47 30 47 40 C 47 50.5 39.5 56 30 56 C 20.5 56 13 50.5 13 40 C 13 30 19 13 30 13 Z', fill: 'light' },
    { d: 'M16.5 33 L 21 37 L 25 32 L 30 37.5 L 35 32 L 39 37 L 43.5 33', fill: 'none' },
    { d: 'M24 44 a 3 2.4 0 1 0 0.1 0 Z M35 47 a 2.2 1.8 0 1 0 0.1 0 Z M31 24 a 2.4 2 0 1 0 0.1 0 Z', fill: 'body' },
  ],
  emerald: [
    // a wingless wyrm: an S of a body, a head, a little crest
    { d: 'M12 50 C 18 56 26 52 26 45 C 26 38 34 35 38 40 C 42 45 48 42 46 34', fill: 'body', tube: 6 },
    { d: 'M39 30 L 42 25 L 44 30 L 47 26 L 48 31', fill: 'ink' },
    { d: 'M39 31 Q 44 27 51 31 L 54 34 Q 51 37 46 37 Q 40 37 39 31 Z', fill: 'body' },
    { d: 'M47.2 31.6 a 1.2 1.2 0 1 0 0.1 0 Z', fill: 'ink' },
  ],
  sapphire: [
    // a sitting dragon with a round wing
    { d: 'M19 45 Q 10 46 11 38 Q 12 33 16 34', fill: 'body', tube: 4 },
    { d: 'M24 38 Q 14 24 22 15 Q 25 22 31 21 Q 34 28 31 37 Z', fill: 'light' },
    { d: BODY, fill: 'body' },
    { d: 'M31 38 Q 35 31 38 25', fill: 'body', tube: 6 },
    { d: HEAD, fill: 'body' },
    { d: EYE, fill: 'ink' },
    { d: 'M23 49 L 22 55 M 32 49 L 33 55', fill: 'body', tube: 3 },
  ],
  ruby: [
    // a fire dragon: a pointed wing, horns and a flame
    { d: 'M19 45 Q 8 48 9 40 L 5.5 38 L 10.5 35.5', fill: 'body', tube: 4 },
    { d: 'M23 38 L 13 14 L 21 20 L 24 11 L 28 21 L 33 17 L 32 37 Z', fill: 'light' },
    { d: BODY, fill: 'body' },
    { d: 'M31 38 Q 35 31 38 25', fill: 'body', tube: 6 },
    { d: 'M37 20 L 33 12.5 L 41 18.5 Z M41 19 L 40 12 L 45 19.5 Z', fill: 'ink' },
    { d: HEAD, fill: 'body' },
    { d: EYE, fill: 'ink' },
    { d: 'M51 23.5 Q 55 19 58 21 Q 55.5 22.5 58.5 24.5 Q 55 25 57.5 28 Q 53.5 27.5 51 25.5 Z', fill: 'flame' },
    { d: 'M23 49 L 22 55 M 32 49 L 33 55', fill: 'body', tube: 3 },
  ],
};

/** A pattern of each card's own, as one path over the whole card (inset so that it stays
 * inside the rounded corners): dots for the egg, slanted stripes for the emerald, waves for
 * the sapphire, upright bars for the ruby. */
export function pattern(id: CardId, w = 60, h = 60, inset = 3): string {
  const x0 = inset;
  const y0 = inset;
  const x1 = w - inset;
  const y1 = h - inset;
  const out: string[] = [];
  if (id === 'egg') {
    for (let y = y0 + 3; y < y1; y += 8)
      for (let x = x0 + 3 + ((y / 8) % 2 ? 4 : 0); x < x1; x += 8) out.push(`M${x - 1.2} ${y} a 1.2 1.2 0 1 0 2.4 0 a 1.2 1.2 0 1 0 -2.4 0 Z`);
  } else if (id === 'emerald') {
    // the lines x + y = k, cut to the rectangle
    for (let k = x0 + y0 + 6; k < x1 + y1; k += 9) {
      const ax = Math.max(x0, k - y1);
      const bx = Math.min(x1, k - y0);
      if (bx - ax > 1) out.push(`M${ax} ${k - ax} L${bx} ${k - bx}`);
    }
  } else if (id === 'sapphire') {
    for (let y = y0 + 4; y < y1; y += 9) {
      let d = `M${x0} ${y}`;
      for (let x = x0; x + 6 <= x1; x += 6) d += ` Q ${x + 3} ${y - 2.5} ${x + 6} ${y}`;
      out.push(d);
    }
  } else {
    for (let x = x0 + 4; x < x1; x += 8) out.push(`M${x} ${y0} L${x} ${y1}`);
  }
  return out.join(' ');
}

/** Dragon scales for the back of a card: rows of arcs. */
export function scales(w = 60, h = 84, inset = 5): string {
  const out: string[] = [];
  let row = 0;
  for (let y = inset + 6; y < h - inset; y += 7, row++)
    for (let x = inset + (row % 2 ? 5 : 0); x + 10 <= w - inset; x += 10) out.push(`M${x} ${y} Q ${x + 5} ${y - 8} ${x + 10} ${y}`);
  return out.join(' ');
}
