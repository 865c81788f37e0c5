import { describe, expect, it } from 'vitest';
import { byPlacing, columns, countdown, createBody, nextGame, outcomeFor, pollDelay, scoreText, secondsUntil, type TournamentGame } from './tournaments';

const game = (placings: (number | null)[]): TournamentGame => ({
  table_id: 't1', round: null,
  players: placings.map((placing, i) => ({ user_id: i === 2 ? null : i + 1, name: i === 2 ? null : `P${i + 1}`, placing, points: null })),
});

describe('tournaments', () => {
  it('opens a new game once, when the player wants it', () => {
    const me = { joined: true, withdrawn: false, table: 'T2', waiting: false };
    expect(nextGame(me, true, new Set(['T1']))).toBe('T2');
    expect(nextGame(me, false, new Set())).toBeNull();
    expect(nextGame(me, true, new Set(['T1', 'T2']))).toBeNull();
    expect(nextGame({ ...me, table: null, waiting: true }, true, new Set())).toBeNull();
    expect(nextGame(null, true, new Set())).toBeNull();
  });

  it('counts down in minutes and hours', () => {
    expect(countdown(0)).toBe('0:00');
    expect(countdown(65)).toBe('1:05');
    expect(countdown(3725)).toBe('1:02:05');
    expect(countdown(-3)).toBe('0:00');
    expect(secondsUntil(110.2, 100)).toBe(11);
    expect(secondsUntil(90, 100)).toBe(0);
    expect(secondsUntil(null, 100)).toBe(0);
  });

  it('polls while the tournament is not over', () => {
    expect(pollDelay('running')).toBe(2000);
    expect(pollDelay('scheduled')).toBe(5000);
    expect(pollDelay('finished')).toBeNull();
  });

  it('shows scores with a decimal only when needed', () => {
    expect(scoreText(4, 'en')).toBe('4');
    expect(scoreText(2.5, 'en')).toBe('2.5');
    expect(scoreText(2.5, 'de')).toBe('2,5');
  });

  it('reads a game for one person', () => {
    expect(outcomeFor(game([1, 2]), 1)).toBe('win');
    expect(outcomeFor(game([1, 2]), 2)).toBe('loss');
    expect(outcomeFor(game([1, 1]), 2)).toBe('draw');
    expect(outcomeFor(game([2, 3, 1]), 2)).toBe(3);
    expect(outcomeFor(game([1, 2]), 9)).toBeNull();
    expect(byPlacing(game([2, 3, 1])).map((p) => p.placing)).toEqual([1, 2, 3]);
  });

  it('shows the tie-breaks of a Swiss tournament only', () => {
    expect(columns('arena')).not.toContain('buchholz');
    expect(columns('swiss')).toContain('sb');
  });

  it('sends the kind\'s own field', () => {
    const form = { name: ' Friday ', game: 'master', kind: 'arena' as const, minutes: 30, rounds: 5, size: 2, bots: false, rated: true, startsIn: 2 };
    expect(createBody(form)).toEqual({ name: 'Friday', game: 'master', kind: 'arena', table_size: 2, bots: false, rated: true, starts_in_s: 120, minutes: 30 });
    const swiss = createBody({ ...form, kind: 'swiss' });
    expect(swiss.rounds).toBe(5);
    expect(swiss.minutes).toBeUndefined();
  });
});
