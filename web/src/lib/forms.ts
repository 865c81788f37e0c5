// Action forms (docs/views.md, "Action forms"): the engine writes a set of legal actions in
// parts (a Fist bid, a Master placement); every choice of one option per part is a legal
// action, and its text is the chosen options' texts joined in the parts' order. The grammar of
// actions is the engine's alone: the client picks options by their slots and joins the texts
// the view gave, or finds the options a text is made of. It writes no word itself.

/** The shape every game's generated `ActionForm` has (src/gen/view-*.ts). */
export interface ActionForm {
  parts: readonly { slot: string | null; texts: readonly string[] }[];
}

/** Each slot's option: a count as itself, a flag as false / true, a list's entry by its index. */
export type FormChoice = Readonly<Record<string, number | boolean>>;

/** The text of one action of the form; a slot not named takes its first option. Null when an
 * option is not there (not legal). */
export function formText(form: ActionForm, choice: FormChoice): string | null {
  let text = '';
  for (const part of form.parts) {
    const i = part.slot === null ? 0 : Number(choice[part.slot] ?? 0);
    const option = Number.isInteger(i) && i >= 0 ? part.texts[i] : undefined;
    if (option === undefined) return null;
    text += option;
  }
  return text;
}

/** The options a text is made of, by slot (the inverse of formText); null when the form names
 * no such action. */
export function formChoice(form: ActionForm, text: string): Record<string, number> | null {
  const parts = form.parts;
  const match = (k: number, at: number): Record<string, number> | null => {
    const part = parts[k];
    if (!part) return at === text.length ? {} : null;
    for (let i = 0; i < part.texts.length; i++) {
      const option = part.texts[i]!;
      if (!text.startsWith(option, at)) continue;
      const rest = match(k + 1, at + option.length);
      if (rest) return part.slot === null ? rest : { [part.slot]: i, ...rest };
    }
    return null;
  };
  return match(0, 0);
}

/** How many options a slot has (0: no such slot). */
export function formOptions(form: ActionForm, slot: string): number {
  return form.parts.find((p) => p.slot === slot)?.texts.length ?? 0;
}

/** Every action of the form, the last part varying fastest (as the engine's legal order). */
export function formTexts(form: ActionForm): string[] {
  let out = [''];
  for (const part of form.parts) out = out.flatMap((head) => part.texts.map((t) => head + t));
  return out;
}
