import { describe, expect, it } from 'vitest';
import { parseRoute } from './route';
import { matchLegal, nextQuery, pageHref, proofRows, puzzleTable, seatNames, signed, type PuzzleAnswer, type PuzzleQuestion } from './puzzles';

const question: PuzzleQuestion = {
  id: 'abc', game: 'master', game_version: 1, seat: 1, legal: ['place egg d2', 'place egg e2'],
  view: { seat: 1, public: { hand_sizes: [4, 4] }, legal: {} }, question: 'puzzle.question.place', unit: 'win_chance',
  rating: 1500, plays: 0,
};

const answer: PuzzleAnswer = {
  id: 'abc', correct: false, answer: 'place egg e2', solution: ['place egg d2'], unit: 'win_chance',
  options: [{ action: 'place egg e2', value: 0.25, best: false }, { action: 'place egg d2', value: 0.75, best: true }],
  margin: 0.5, question: 'puzzle.question.place', explanation: { key: 'x', params: {} }, themes: [],
  source: {}, rated: false, rating: null, puzzle_rating: 1500,
};

describe('puzzles', () => {
  it('builds the query of a choice', () => {
    expect(nextQuery(null, null)).toBe('');
    expect(nextQuery('master', 'puzzle.theme.master.pair')).toBe('?game=master&theme=puzzle.theme.master.pair');
    expect(pageHref('farkle', null)).toBe('/puzzles?game=farkle');
  });

  it('draws the view as a live table of the puzzle seat', () => {
    const t = puzzleTable(question);
    expect(t.seat).toBe(1);
    expect(t.phase).toBe('live');
    expect(t.view?.events).toEqual([]);
    const farkle = puzzleTable({ ...question, game: 'farkle', view: { public: { roll: [1] } } });
    expect((farkle.view as unknown as { public: unknown }).public).toEqual({ history: [], roll: [1] });
    expect(seatNames(question, (n) => `Player ${n}`)).toEqual(['Player 1', 'Player 2']);
  });

  it('matches what a screen sends to a legal option', () => {
    expect(matchLegal(question.legal, ' place  egg D2 ')).toBe('place egg d2');
    expect(matchLegal(question.legal, 'place egg z9')).toBeNull();
  });

  it('lists the proof best first, in the language', () => {
    const rows = proofRows(answer, 'de');
    expect(rows.map((r) => r.action)).toEqual(['place egg d2', 'place egg e2']);
    expect(rows[0]).toMatchObject({ value: '75,0 %', loss: '', best: true, chosen: false });
    expect(rows[1]).toMatchObject({ value: '25,0 %', loss: '50,0 %', chosen: true });
    expect(proofRows(answer, 'en')[1]!.value).toBe('25.0 %');
  });

  it('routes /puzzles and /puzzles/<id>', () => {
    expect(parseRoute('/puzzles', '?game=master&theme=puzzle.theme.master.pair')).toEqual({ name: 'puzzles', game: 'master', theme: 'puzzle.theme.master.pair' });
    expect(parseRoute('/puzzles/', '?theme=<b>')).toEqual({ name: 'puzzles', game: null, theme: null });
    expect(parseRoute('/puzzles/abc123')).toEqual({ name: 'puzzle', id: 'abc123' });
    expect(parseRoute('/puzzles/0f3a9c2e71b4d5a6e8c1')).toEqual({ name: 'puzzle', id: '0f3a9c2e71b4d5a6e8c1' });
    // a game's name is its puzzles, as ?game= is
    expect(parseRoute('/puzzles/farkle')).toEqual({ name: 'puzzles', game: 'farkle', theme: null });
    expect(parseRoute('/puzzles/master/', '?theme=puzzle.theme.master.pair')).toEqual({ name: 'puzzles', game: 'master', theme: 'puzzle.theme.master.pair' });
    expect(parseRoute('/puzzles/a%20b')).toEqual({ name: 'notfound' });
  });

  it('signs rating changes', () => {
    expect(signed(12)).toBe('+12');
    expect(signed(-8)).toBe('−8');
    expect(signed(0)).toBe('±0');
  });
});
