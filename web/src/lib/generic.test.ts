import { describe, expect, it } from 'vitest';
import { genericActions, genericSummary } from './generic';

describe('the generic screen reads the view', () => {
  it('words the legal actions by the choices the view gives', () => {
    const legal = { actions: ['roll', 'bank'], choices: [{ action: 'roll', code: 'hoard.choice.roll', params: { gold: 7 } }, { action: 'bank', code: 'hoard.choice.bank', params: { gold: 7 } }] };
    expect(genericActions(legal)).toEqual([
      { action: 'roll', code: 'hoard.choice.roll', params: { gold: 7 } },
      { action: 'bank', code: 'hoard.choice.bank', params: { gold: 7 } },
    ]);
  });
  it('falls back to the action texts, and to nothing for what is not a description', () => {
    expect(genericActions({ actions: ['roll', 3] })).toEqual([{ action: 'roll', code: null, params: {} }]);
    expect(genericActions(null)).toEqual([]);
    expect(genericActions({ choices: [{ code: 'x' }] })).toEqual([]);
    expect(genericActions({ form: { parts: [{ slot: 'x' }] } })).toEqual([]);
  });
  it('lists every text of an action form, as the engine writes them', () => {
    const form = { parts: [{ slot: null, texts: ['take'] }, { slot: 'n', texts: [' 1', ' 2'] }, { slot: 'all', texts: ['', '!'] }] };
    expect(genericActions({ form }).map((a) => a.action)).toEqual(['take 1', 'take 1!', 'take 2', 'take 2!']);
  });
  it('reads the summary lines and skips malformed ones', () => {
    expect(genericSummary({ summary: [{ code: 'hoard.summary.hoard', params: { seat: 0 } }, { params: {} }, 'x'] })).toEqual([{ code: 'hoard.summary.hoard', params: { seat: 0 } }]);
    expect(genericSummary({})).toEqual([]);
  });
});
