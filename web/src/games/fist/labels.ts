// Fist's options in words for hints and analysis (lib/coach.ts): the power decisions as the
// screen words them from the view, a bid by its coins, silver by its count. The coins of a
// bid are the options the view's form (legal.form, lib/forms.ts) says the text is made of: no
// word of the action's text is read here.
import type { FistLegal } from '../../gen/view-fist';
import type { GameLabeller } from '../../lib/coach';
import { formChoice } from '../../lib/forms';
import { decisionPrompt } from './decisions';

export const labeller: GameLabeller = (legal, render, names) => {
  const fist = legal as FistLegal | null;
  const prompt = decisionPrompt(fist, render, names);
  const byAction = new Map((prompt?.choices ?? []).map((c) => [c.action, c.label]));
  const coin = (c: string) => render(`fist.coin.${c}`);
  return (action) => {
    const chosen = byAction.get(action);
    if (chosen !== undefined) return chosen;
    const choice = fist?.form ? formChoice(fist.form, action) : null;
    if (!choice) return null;
    if (fist?.kind === 'bid') {
      const [fairy, common] = [choice.fairy ?? 0, choice.common ?? 0];
      const extras = (['black', 'amulet'] as const).filter((x) => choice[x]);
      let label = fairy + common === 0 && extras.length ? render('web.hint.fist.no_gold') :
        fairy + common === 0 ? render('web.hint.fist.empty') : render('web.hint.fist.bid', { fairy, common });
      for (const x of extras) label = render('web.hint.fist.plus', { label, coin: coin(x) });
      return label;
    }
    const label = render('web.hint.fist.silver', { n: choice.silver ?? 0 });
    return choice.amulet ? render('web.hint.fist.plus', { label, coin: coin('amulet') }) : label;
  };
};
