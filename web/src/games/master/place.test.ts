// A placement's text from the view (fixtures/place.json, web/scripts/game_fixtures.py): the
// screen picks a card and a cell and sends the text the view's form writes for them.
import { describe, expect, it } from 'vitest';
import type { DragonlairViewMasterSchemaVersion1 as MasterView, MasterLegal } from '../../gen/view-master';
import { fixtures } from '../testkit';
import { placeAction, placement } from './place';

const fx = fixtures<MasterView>('master').find((f) => f.stage === 'place')!;
const legal = fx.view.legal as unknown as MasterLegal;

describe('Master placements', () => {
  it('sends the engine\'s text for every card on every legal cell, and finds them back', () => {
    const sent: string[] = [];
    for (const card of legal.cards)
      for (const cell of legal.cells) {
        const text = placeAction(legal, card, cell);
        expect(fx.legal_actions).toContain(text);
        expect(placement(legal, text!)).toEqual({ card, cell });
        sent.push(text!);
      }
    expect(sent.sort()).toEqual([...fx.legal_actions].sort());
  });

  it('sends nothing for a card not in hand or a cell not legal', () => {
    const free = ['a1', 'b2', 'c3', 'd4', 'e5', 'f6', 'g7'].find((c) => !legal.cells.includes(c))!;
    expect(placeAction(legal, legal.cards[0]!, free)).toBeNull();
    expect(placeAction(legal, 'dragon', legal.cells[0]!)).toBeNull();
    expect(placeAction(null, legal.cards[0]!, legal.cells[0]!)).toBeNull();
    expect(placement(legal, 'no such move')).toBeNull();
  });
});
