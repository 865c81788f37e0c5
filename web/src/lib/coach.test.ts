import { describe, expect, it } from 'vitest';
import type { FarkleLegal } from '../gen/view-farkle';
import { farkleChoices } from '../games/farkle/choices';
import { catalogue, fixtures } from '../games/testkit';
import { chanceChart, formatValue, hintAge, labeller, lossLines, mistakes, ranked, rememberView, type AnalysisData, type HintOption, type Render } from './coach';
import { render, type Catalogue } from './format';

const en = catalogue('en');
const de = catalogue('de');
/** renders as the screen does, failing on a code the catalogue lacks */
const renderer = (cat: Catalogue): Render => (code, params = {}, names) => {
  if (!(code in cat.messages)) throw new Error(`${cat.lang}: no message ${code}`);
  return render(cat, code, params, { names });
};
const RAW = /[{}]|web\.|fist\.|farkle\.|master\./;

describe('hints on screen', () => {
  it('formats soldiers and win chances, and a missing value', () => {
    expect(formatValue(450, 'soldiers')).toBe('450');
    expect(formatValue(12.345, 'soldiers')).toBe('12.3');
    expect(formatValue(0.4567, 'win_chance')).toBe('45.7 %');
    expect(formatValue(null, 'soldiers')).toBe('—');
  });
  it('writes German decimals with a comma', () => {
    expect(formatValue(0.077, 'win_chance', 'de')).toBe('7,7 %');
    expect(formatValue(12.345, 'soldiers', 'de')).toBe('12,3');
    expect(formatValue(450, 'soldiers', 'de')).toBe('450');
    expect(formatValue(0.077, 'win_chance', 'en')).toBe('7.7 %');
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
      table: 't1', format: 'dragonlair-analysis', format_version: 1, seconds: 0.5,
      game: 'farkle', seat: 0, complete: true, decisions_total: 3, loss_totals: {}, win_chance: [],
      mistakes: [7, 3, 5], decisions: [d(3, 50), d(5, 0), d(7, 120)],
    };
    expect(mistakes(data).map((m) => m.index)).toEqual([7, 3]);
  });
});

describe('hint options in words (issue 16)', () => {
  for (const cat of [en, de]) {
    it(`labels a Farkle view's every option as its screen does (${cat.lang})`, () => {
      for (const fx of fixtures<{ legal: unknown }>('farkle')) {
        const label = labeller('farkle', fx.view, renderer(cat), fx.names);
        for (const action of fx.legal_actions) {
          const words = label(action);
          expect(words, action).toBeTruthy();
          expect(words).not.toMatch(RAW);
        }
      }
    });

    it(`labels a Skirmish defender's keeps as defence, as the screen does (${cat.lang})`, () => {
      const fx = fixtures<{ legal: unknown }>('farkle').find((f) => f.stage === 'defender_keep_all')!;
      const r = renderer(cat);
      const legal = (fx.view as { legal: FarkleLegal }).legal;
      const as = (role: 'soldiers' | 'defence') => farkleChoices(legal, r, fx.names, role).find((c) => c.keep)!;
      const keep = as('defence');
      expect(labeller('farkle', fx.view, r, fx.names)(keep.action)).toBe(keep.label);
      expect(keep.label).not.toBe(as('soldiers').label);
    });

    it(`labels Fist power decisions from the view's choices (${cat.lang})`, () => {
      for (const fx of fixtures<{ legal: unknown }>('fist')) {
        const label = labeller('fist', fx.view, renderer(cat), fx.names);
        const words = fx.legal_actions.map((a) => label(a));
        expect(words.every((w) => typeof w === 'string' && w.length > 0), fx.stage).toBe(true);
        for (const w of words) expect(w).not.toMatch(RAW);
      }
      const steal = fixtures<{ legal: unknown }>('fist').find((f) => f.stage === 'steal')!;
      expect(labeller('fist', steal.view, renderer(cat), steal.names)('steal p1 red')).toContain('Bob');
    });

    it(`puts a sealed bid and a Silver bid in coins, a Master placement in card and cell (${cat.lang})`, () => {
      const r = renderer(cat);
      const view = (stage: string, game = 'fist', folder = 'bids') => fixtures<{ legal: unknown }>(game, folder).find((f) => f.stage === stage)!.view;
      const fist = labeller('fist', view('bid'), r, []);
      const coin = (c: string) => r(`fist.coin.${c}`);
      const two = fist('bid f2 c0')!;
      expect(two).toContain('2');
      expect(two).toContain(coin('fairy'));
      expect(fist('bid f0 c0')).toBe(r('web.hint.fist.empty'));
      expect(fist('bid f0 c0 black')).toContain(coin('black'));
      expect(fist('bid f0 c0 black')).not.toBe(fist('bid f0 c0'));
      const both = labeller('fist', view('amulet'), r, [])('bid f0 c0 black amulet')!;
      expect(both).toContain(coin('black'));
      expect(both).toContain(coin('amulet'));
      const silver = labeller('fist', view('silver'), r, []);
      expect(silver('silver 3')).toContain('3');
      const master = labeller('master', view('place', 'master', ''), r, []);
      const ruby = master('place ruby c4')!;
      expect(ruby).toContain(r('master.card.ruby'));
      expect(ruby).toContain('c4');
      for (const w of [two, both, ruby, silver('silver 3')!]) expect(w).not.toMatch(RAW);
      expect(fist('no such move')).toBeNull();
      expect(fist('bid f99 c0')).toBeNull(); // not a bid this view allows
      expect(master('place ruby a1')).toBeNull();
      expect(labeller('chess', null, r, [])('e2e4')).toBeNull();
    });

    it(`labels every bid, Silver bid and placement of a real view (${cat.lang})`, () => {
      for (const [game, folder] of [['fist', 'bids'], ['master', '']] as const) {
        for (const fx of fixtures<{ legal: unknown }>(game, folder)) {
          const label = labeller(game, fx.view, renderer(cat), fx.names);
          const words = fx.legal_actions.map((a) => label(a));
          for (const w of words) {
            expect(w, fx.stage).toBeTruthy();
            expect(w).not.toMatch(RAW);
          }
          expect(new Set(words).size, fx.stage).toBe(words.length);
        }
      }
    });
  }

  it('says the same move differently in English and German', () => {
    const bid = fixtures<{ legal: unknown }>('fist', 'bids').find((f) => f.stage === 'bid')!.view;
    const l = (cat: Catalogue) => labeller('fist', bid, renderer(cat), [])('bid f2 c1 black');
    expect(l(en)).not.toBe(l(de));
  });
});

describe('a hint answered after the table moved on', () => {
  it('counts the moves since its position, none while it is current or ahead', () => {
    expect(hintAge(12, 12)).toBe(0);
    expect(hintAge(12, 15)).toBe(3);
    expect(hintAge(13, 12)).toBe(0); // the update for its position has not arrived yet
  });

  it('keeps the newest views by seq to label it from its own position', () => {
    let views = new Map<number, string>();
    for (let s = 1; s <= 40; s++) views = rememberView(views, s, `v${s}`, 32);
    expect(views.size).toBe(32);
    expect(views.get(40)).toBe('v40');
    expect(views.get(9)).toBe('v9');
    expect(views.has(8)).toBe(false);
  });

  it('marks it in English and German, with the number of moves', () => {
    expect(render(en, 'web.hint.earlier', { n: 1 })).toMatch(/last move/);
    expect(render(en, 'web.hint.earlier', { n: 3 })).toMatch(/last 3 moves/);
    expect(render(de, 'web.hint.earlier', { n: 3 })).toMatch(/letzten 3 Zügen/);
    expect(render(de, 'web.hint.again', {})).not.toMatch(RAW);
  });
});

describe('analysis summary and chart (issue 25)', () => {
  const d = (index: number, loss: number | null, unit: string) => ({ index, turn: 1, played: 'x', best: 'y', loss, unit, exact: true, win_chance: null, options: [] });
  const data = (decisions: ReturnType<typeof d>[], totals: Record<string, number>): AnalysisData => ({
    table: 't1', format: 'dragonlair-analysis', format_version: 1, seconds: 0.5,
    game: 'master', seat: 0, complete: true, decisions_total: decisions.length, loss_totals: totals, win_chance: [],
    mistakes: decisions.map((x) => x.index), decisions,
  });
  it('never adds win chances up: it counts the costly decisions and names the costliest', () => {
    const a = data([d(1, 0.9, 'win_chance'), d(2, 0.883, 'win_chance'), d(3, 0.8, 'win_chance'), d(4, 0, 'win_chance')], { win_chance: 2.583 });
    const en1 = lossLines(a, renderer(en));
    expect(en1).toEqual(['3 decisions cost win chance; the costliest 90.0 %']);
    expect(lossLines(a, renderer(de), 'de')).toEqual(['3 Entscheidungen kosteten Siegchance; die teuerste 90,0 %']);
    for (const line of [...en1, ...lossLines(a, renderer(de))]) expect(line).not.toContain('258');
    const one = data([d(1, 0.1, 'win_chance')], { win_chance: 0.1 });
    expect(lossLines(one, renderer(en))).toEqual(['1 decision cost win chance; the costliest 10.0 %']);
  });
  it('adds expected soldiers up', () => {
    const s = data([d(1, 100, 'soldiers'), d(2, 150, 'soldiers')], { soldiers: 250 });
    expect(lossLines(s, renderer(en))).toEqual(['250 expected soldiers lost in all']);
  });
  it('draws win chances on a fixed scale of 0 to 100 % with the steps along', () => {
    const c = chanceChart([{ index: 2, value: 0.5 }, { index: 12, value: 1 }], 320, 120);
    expect(c.first).toBe(2);
    expect(c.last).toBe(12);
    expect(c.ticks.map((t) => t.value)).toEqual([0, 0.5, 1]);
    const [p0, p1] = c.points.split(' ').map((p) => p.split(',').map(Number));
    expect(p0![0]).toBe(c.box.left);
    expect(p1![0]).toBe(c.box.right);
    expect(p1![1]).toBe(c.box.top); // 100 % at the top
    expect(p0![1]).toBe(c.ticks[1]!.y); // 50 % halfway
  });
});
