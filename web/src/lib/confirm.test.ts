import { describe, expect, it } from 'vitest';
import { isFinal } from '../games/farkle/choices';
import { catalogue } from '../games/testkit';
import { choose, confirmStaged, stillStaged, type Staged } from './confirm';
import { render } from './format';

const move = (action: string, seq = 7): Staged => ({ action, label: action, seq });

describe('confirm a final move', () => {
  it('sends on the first click with the setting off', () => {
    expect(choose(null, move('place ruby b2'), false)).toEqual({ staged: null, send: 'place ruby b2' });
  });

  it('stages the first click with the setting on, and sends on "Confirm"', () => {
    const first = choose(null, move('place ruby b2'), true);
    expect(first.send).toBeNull();
    expect(first.staged?.action).toBe('place ruby b2');
    expect(confirmStaged(first.staged)).toEqual({ staged: null, send: 'place ruby b2' });
  });

  it('sends on a second click on the same move, re-stages on another', () => {
    const staged = move('bank');
    expect(choose(staged, move('bank'), true)).toEqual({ staged: null, send: 'bank' });
    expect(choose(staged, move('stop'), true)).toEqual({ staged: move('stop'), send: null });
  });

  it('drops a staged move when the table moves on; "Confirm" with nothing staged sends nothing', () => {
    const staged = move('bank', 7);
    expect(stillStaged(staged, 7)).toBe(staged);
    expect(stillStaged(staged, 8)).toBeNull();
    // a click after an update stages again rather than sending what was chosen before it
    expect(choose(staged, move('bank', 8), true)).toEqual({ staged: move('bank', 8), send: null });
    expect(confirmStaged(null)).toEqual({ staged: null, send: null });
  });

  it('asks in Farkle for a bank, a stop and a battle (D4, D5, D6), not for a roll or a keep', () => {
    for (const a of ['bank', 'stop', 'battle', 'skirmish'] as const) expect(isFinal(a), a).toBe(true);
    for (const a of ['roll', 'keep', 'recruit', 'double', 'item', 'use'] as const) expect(isFinal(a), a).toBe(false);
  });

  it('says it in English and German', () => {
    for (const lang of ['en', 'de']) {
      const cat = catalogue(lang);
      for (const code of ['web.confirm.group', 'web.confirm.confirm', 'web.confirm.cancel', 'web.settings.confirm', 'web.settings.sound', 'web.settings.notify']) {
        expect(code in cat.messages, `${lang} ${code}`).toBe(true);
      }
      const text = render(cat, 'web.confirm.prompt', { move: 'X' });
      expect(text).toContain('X');
      expect(text).not.toMatch(/[{}]/);
    }
  });
});

describe('pages for what does not exist', () => {
  it('has a page for each kind, in English and German, naming what was asked for', () => {
    for (const lang of ['en', 'de']) {
      const cat = catalogue(lang);
      expect(render(cat, 'web.notfound.title', {})).not.toMatch(/web\./);
      expect(render(cat, 'web.notfound.home', {})).not.toMatch(/web\./);
      for (const what of ['route', 'table', 'replay', 'user', 'game']) {
        const text = render(cat, `web.notfound.${what}`, { name: 'zz9' });
        expect(text, `${lang} ${what}`).not.toMatch(/web\.|[{}]/);
        if (what !== 'route') expect(text).toContain('zz9');
      }
    }
  });
});
