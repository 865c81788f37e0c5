// Fist of Dragonstones: a power decision (the view's `legal` of kind "decision") as a
// question and one labelled choice per legal action. Pure: the screen passes its renderer,
// so decisions.test.ts checks every decision kind the engine can ask against real views
// (fixtures/*.json, written by web/scripts/game_fixtures.py) in English and German. The
// choices are the engine's, in its order; nothing here decides what is legal.
import type { FistLegal } from '../../gen/view-fist';

/** renders a catalogue code with params (t of i18n.svelte.ts, or format.render in tests) */
export type Render = (code: string, params?: Record<string, unknown>, names?: readonly string[]) => string;

export interface Choice {
  /** the action text sent when chosen */
  action: string;
  label: string;
}

export interface DecisionPrompt {
  /** the decision kind (pending.Dec, lower case): "steal", "buy", ... */
  kind: string;
  /** the card whose power asks */
  card: string;
  question: string;
  choices: Choice[];
}

/** The question and the choices of a power decision; null when the view asks none. */
export function decisionPrompt(legal: FistLegal | null | undefined, render: Render, names: readonly string[]): DecisionPrompt | null {
  if (!legal || legal.kind !== 'decision' || !legal.choices || !legal.decision) return null;
  const card = legal.card ?? '';
  const cardName = render(`fist.card.${card}.name`);
  return {
    kind: legal.decision,
    card,
    question: render(`web.fist.decision.${legal.decision}`, { card: cardName }),
    choices: legal.choices.map((c) => ({ action: c.action, label: choiceLabel(c.code, c.params as Record<string, unknown>, render, names) })),
  };
}

/** The things a gain gives, in the order the engine names them (its `gain` param). */
const GAIN_ORDER = ['fairy', 'common', 'silver', 'amulet', 'black', 'red', 'blue', 'yellow'];

/** What a gain gives in words: "3 Silver", "2 Common Gold and 1 Silver" (the catalogue's
 * `fist.describe.*` words, as a custom character's power is described). */
export function gainWords(gain: Record<string, unknown>, render: Render): string {
  const parts = GAIN_ORDER.filter((k) => typeof gain[k] === 'number' && (gain[k] as number) > 0).map((k) => render(`fist.describe.item.${k}`, { n: gain[k] }));
  if (parts.length <= 1) return parts.join('');
  return render('fist.describe.and', { first: parts.slice(0, -1).join(render('fist.describe.comma')), last: parts.at(-1) });
}

/** One choice's words: the engine's code and params, except that "take the other reward"
 * names the reward (`gain`: "Take 3 Silver instead", issue 25). */
export function choiceLabel(code: string, params: Record<string, unknown>, render: Render, names: readonly string[]): string {
  const gain = params.gain;
  if (code === 'fist.choice.take' && gain && typeof gain === 'object') {
    const words = gainWords(gain as Record<string, unknown>, render);
    if (words) return render('web.fist.choice.take', { reward: words });
  }
  return render(code, params, names);
}
