// The reducer keeps the rematch offer the server last told (docs/protocol.md, "rematch").
import { describe, expect, it } from 'vitest';
import type { ServerMessage } from '../gen/protocol';
import { initialState, reduce } from './protocol';

describe('rematch messages', () => {
  it('keeps the newest offer and its new table', () => {
    const offered = { type: 'rematch', state: 'offered', accepted: [0], asked: [0, 1], expires_at: 120 } as ServerMessage;
    let s = reduce(initialState(), offered);
    expect(s.rematch?.state).toBe('offered');
    expect(s.rematch?.accepted).toEqual([0]);
    s = reduce(s, { type: 'rematch', state: 'started', accepted: [0, 1], asked: [0, 1], table: 'abc123' } as ServerMessage);
    expect(s.rematch?.state).toBe('started');
    expect(s.rematch?.table).toBe('abc123');
  });
});
