// Dragon Farkle: every legal action of a view as one labelled choice, and the notes of the
// Final Battle, the dragon's damage and the Lair (D6, D7). Pure: the screen passes its
// renderer, so choices.test.ts checks real views of those stages (fixtures/*.json, written by
// web/scripts/game_fixtures.py) in English and German. What is legal comes from the view.
import type { FarkleLegal, FarklePublic, KeepChoice, Move } from '../../gen/view-farkle';
import { moveLabel, percent, type KeepRole } from './dice';

/** renders a catalogue code with params (t of i18n.svelte.ts, or format.render in tests) */
export type Render = (code: string, params?: Record<string, unknown>, names?: readonly string[]) => string;

export interface Choice {
  action: string;
  /** what the action is (the view's `legal.moves`): `keep`, `roll`, `skirmish`... */
  kind: Move['kind'];
  label: string;
  /** a scoring selection (shown with its dice and risk) or another action */
  keep: boolean;
}

/** One choice per action of `legal.moves` (each legal action with what it is), in the engine's
 * order. */
export function farkleChoices(legal: FarkleLegal | null | undefined, render: Render, names: readonly string[], role: KeepRole = 'soldiers',
  cardName: (id: string) => string = (id) => render(`farkle.card.${id}.name`)): Choice[] {
  if (!legal) return [];
  const keeps = new Map(legal.keeps.map((k) => [k.action, k]));
  return legal.moves.map((move) => {
    const { action, kind } = move;
    const k = keeps.get(action);
    if (k) return { action, kind, keep: true, label: keepLabel(k, render, role) };
    const l = moveLabel(move);
    const p: Record<string, unknown> = { ...(l?.params ?? {}) };
    if (typeof p.target === 'number') p.target = names[p.target] ?? render('web.seat.label', { seat: p.target + 1 });
    if (typeof p.card === 'string') p.card = cardName(p.card);
    // what an alliance doubles is what the roll gives: soldiers, or a Skirmish's attack or defence
    const code = kind === 'double' && role !== 'soldiers' ? `farkle.screen.act.double.${role}` : l?.code;
    return { action, kind, keep: false, label: code ? render(code, p) : action };
  });
}

/** A scoring selection in words: its dice, then what it gives (soldiers, or in a Skirmish the
 * attacker's attack or the defender's defence: `role`, from the view) and the dice left in
 * hand or, when it sets aside every die, that the next roll takes all the roller's dice again
 * (the view's `next_dice`: 6, a Skirmish defender 5, D5.2). */
export function keepLabel(k: KeepChoice, render: Render, role: KeepRole = 'soldiers'): string {
  return `${render('farkle.screen.keep.set_aside', { dice: k.dice })}: ${keepGives(k, render, role)}`;
}

/** What a scoring selection gives and what is left after it (the keep button's second line). */
export function keepGives(k: KeepChoice, render: Render, role: KeepRole = 'soldiers'): string {
  if (k.dice_left === 0) return render(`farkle.screen.keep_hot.${role}`, { value: k.soldiers, n: k.next_dice });
  return render(`farkle.screen.keep.${role}`, { value: k.soldiers, n: k.dice_left });
}

/** The farkle risk of a roll as the view gives it (a keep's `next_dice` and `risk`, or
 * `public.next_roll`); null where the view names no roll. No rule here: the dice of the
 * next roll are the engine's. */
export function riskNote(roll: { dice: number; risk: number } | null | undefined, render: Render, lang: string): string | null {
  if (!roll) return null;
  return render('web.farkle.risk', { n: roll.dice, p: percent(roll.risk, lang) });
}

/** What the stage of the game means for the reader: the Final Battle under way, the
 * dragon's wounds, the reader in the Lair. */
export function stageNotes(pub: FarklePublic, seat: number | null, render: Render): { stage: string; text: string }[] {
  const out: { stage: string; text: string }[] = [];
  if (pub.mode === 'battle') out.push({ stage: 'battle', text: render('web.farkle.stage.battle') });
  if (pub.dragon.damage > 0) out.push({ stage: 'damage', text: dragonLine(pub.dragon, render, 'farkle.screen.stage.damage') });
  if (seat !== null && pub.seats[seat]?.in_lair) out.push({ stage: 'lair', text: render('web.farkle.stage.lair') });
  return out;
}

/** The dragon's hits in words: hits so far and how many slay it, or, once they reached its
 * strength (an alliance's 2 may pass it, D6.2), that it was slain with them. */
export function dragonLine(dragon: { damage: number; strength: number }, render: Render, code = 'farkle.screen.dragon.track'): string {
  const params = { damage: dragon.damage, strength: dragon.strength, n: dragon.damage };
  return render(dragon.damage >= dragon.strength ? 'farkle.screen.dragon.slain' : code, params);
}

/** The choices the screen asks to confirm (setting "confirm", lib/confirm.ts): banking or
 * stopping (the turn's soldiers are final), and a battle: attacking a player (D5) or the Final
 * Battle (D6). Recruiting, a roll, a keep and an item are played at once (the everyday moves;
 * a confirm on each would be a chore). */
const FINAL: ReadonlySet<string> = new Set<Move['kind']>(['bank', 'stop', 'skirmish', 'battle']);

/** Whether a choice of this kind (the view's `legal.moves`) asks to be confirmed. */
export function isFinal(kind: Move['kind']): boolean {
  return FINAL.has(kind);
}
