import { describe, expect, it } from 'vitest';
import { parseRoute } from './route';

describe('parseRoute: the rules pages', () => {
  it('names the game of /rules/<game>, and its table', () => {
    expect(parseRoute('/rules/master', '')).toEqual({ name: 'rules', game: 'master', table: null });
    expect(parseRoute('/rules/fist', '?table=abc')).toEqual({ name: 'rules', game: 'fist', table: 'abc' });
  });
  it('leaves the game to the registry at /rules alone (the screen opens the first)', () => {
    expect(parseRoute('/rules', '')).toEqual({ name: 'rules', game: '', table: null });
    expect(parseRoute('/rules/', '')).toEqual({ name: 'rules', game: '', table: null });
  });
  it('refuses a table id that is no id', () => {
    expect(parseRoute('/rules/fist', '?table=<x>')).toEqual({ name: 'rules', game: 'fist', table: null });
  });
});
