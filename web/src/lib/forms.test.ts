// Action forms (lib/forms.ts) on the engine's own forms (the fixtures' views): every choice of
// options is one of the engine's legal texts, and a text is found back as its options.
import { describe, expect, it } from 'vitest';
import { fixtures } from '../games/testkit';
import { formChoice, formOptions, formText, formTexts, type ActionForm } from './forms';

const forms = [...fixtures<{ legal: { form: ActionForm } }>('fist', 'bids'), ...fixtures<{ legal: { form: ActionForm } }>('master')];

describe('action forms', () => {
  it('name exactly the engine\'s legal actions, each found back as its options', () => {
    expect(forms.length).toBe(4);
    for (const fx of forms) {
      const form = fx.view.legal.form;
      expect(formTexts(form), fx.stage).toEqual(fx.legal_actions);
      for (const text of fx.legal_actions) {
        const choice = formChoice(form, text);
        expect(choice, text).not.toBeNull();
        expect(formText(form, choice!)).toBe(text);
      }
    }
  });

  it('refuse an option the form does not hold, and a text it does not name', () => {
    const form: ActionForm = { parts: [{ slot: null, texts: ['go'] }, { slot: 'n', texts: [' 1', ' 10'] }, { slot: 'flag', texts: ['', ' x'] }] };
    expect(formText(form, { n: 1, flag: true })).toBe('go 10 x');
    expect(formText(form, {})).toBe('go 1');
    expect(formText(form, { n: 2 })).toBeNull();
    expect(formText(form, { n: -1 })).toBeNull();
    expect(formText(form, { n: 0.5 })).toBeNull();
    expect(formChoice(form, 'go 10')).toEqual({ n: 1, flag: 0 });
    expect(formChoice(form, 'go 1 x')).toEqual({ n: 0, flag: 1 });
    expect(formChoice(form, 'go 100')).toBeNull();
    expect(formChoice(form, 'go')).toBeNull();
    expect(formOptions(form, 'n')).toBe(2);
    expect(formOptions(form, 'none')).toBe(0);
  });
});
