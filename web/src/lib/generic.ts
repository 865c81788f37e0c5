// What the generic game screen reads from a view (GenericScreen.svelte): the position's lines
// and the legal actions with their wording, each as catalogue codes with params.
import { formTexts, type ActionForm } from './forms';

export interface Line {
  code: string;
  params: Record<string, unknown>;
}

export interface GenericAction {
  action: string;
  /** the catalogue code that words it, or null: show the action's text */
  code: string | null;
  params: Record<string, unknown>;
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** The public part's `summary` lines (none where the game gives none or they are malformed). */
export function genericSummary(pub: unknown): Line[] {
  if (!isObject(pub) || !Array.isArray(pub.summary)) return [];
  return pub.summary.filter((l): l is { code: string; params?: unknown } => isObject(l) && typeof l.code === 'string').map((l) => ({ code: l.code, params: isObject(l.params) ? l.params : {} }));
}

const isForm = (x: unknown): x is ActionForm =>
  isObject(x) && Array.isArray(x.parts) && x.parts.every((p) => isObject(p) && (p.slot === null || typeof p.slot === 'string') && Array.isArray(p.texts) && p.texts.length > 0 && p.texts.every((t) => typeof t === 'string'));

/** The legal actions: `legal.choices` ({action, code, params}) where given, else `legal.actions`
 * (texts), else every text of `legal.form` (an action form, lib/forms.ts). */
export function genericActions(legal: unknown): GenericAction[] {
  if (!isObject(legal)) return [];
  if (Array.isArray(legal.choices)) {
    return legal.choices
      .filter((c): c is { action: string; code?: unknown; params?: unknown } => isObject(c) && typeof c.action === 'string')
      .map((c) => ({ action: c.action, code: typeof c.code === 'string' ? c.code : null, params: isObject(c.params) ? c.params : {} }));
  }
  if (Array.isArray(legal.actions)) return legal.actions.filter((a): a is string => typeof a === 'string').map((action) => ({ action, code: null, params: {} }));
  if (isForm(legal.form)) return formTexts(legal.form).map((action) => ({ action, code: null, params: {} }));
  return [];
}
