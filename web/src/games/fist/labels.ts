// Fist's options in words for hints and analysis (lib/coach.ts): the power decisions as the
// screen words them from the view, a bid by its coins, silver by its count.
import type { FistLegal } from '../../gen/view-fist';
import type { GameLabeller } from '../../lib/coach';
import { decisionPrompt } from './decisions';

const FIST_BID = /^bid f(\d+) c(\d+)((?: (?:black|amulet))*)$/;
const FIST_SILVER = /^silver (\d+)( amulet)?$/;

export const labeller: GameLabeller = (legal, render, names) => {
  const prompt = decisionPrompt(legal as FistLegal | null, render, names);
  const byAction = new Map((prompt?.choices ?? []).map((c) => [c.action, c.label]));
  const coin = (c: string) => render(`fist.coin.${c}`);
  return (action) => {
    const chosen = byAction.get(action);
    if (chosen !== undefined) return chosen;
    let m = FIST_BID.exec(action);
    if (m) {
      const [fairy, common] = [Number(m[1]), Number(m[2])];
      const extras = (m[3] ?? '').trim().split(' ').filter(Boolean);
      let label = fairy + common === 0 && extras.length ? render('web.hint.fist.no_gold') :
        fairy + common === 0 ? render('web.hint.fist.empty') : render('web.hint.fist.bid', { fairy, common });
      for (const x of extras) label = render('web.hint.fist.plus', { label, coin: coin(x) });
      return label;
    }
    m = FIST_SILVER.exec(action);
    if (m) {
      const label = render('web.hint.fist.silver', { n: Number(m[1]) });
      return m[2] ? render('web.hint.fist.plus', { label, coin: coin('amulet') }) : label;
    }
    return null;
  };
};
