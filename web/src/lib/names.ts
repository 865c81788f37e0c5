// How seats and bots are named on screen: a person by their display name, a bot by its name
// in the catalogues (web.bot.<id>), in the reader's language.
import { tt } from './i18n.svelte';

export interface NamedSeat {
  kind: string;
  bot: string | null;
  name: string | null;
}

/** A bot's name in the reader's language (its id where the catalogues have none). */
export function botLabel(id: string): string {
  return tt(`web.bot.${id}`, id);
}

/** What a bot does, in a few words (empty where the catalogues say nothing). */
export function botHelp(id: string): string {
  return tt(`web.bot.${id}.help`, '');
}

/** A seat's name: a person's display name (kept when a bot took their seat over), a bot seat's
 * bot by its catalogue name, else ``p<seat>``. */
export function seatName(s: NamedSeat, seat: number): string {
  if (s.kind === 'bot' && s.bot && (s.name === null || s.name === s.bot)) return botLabel(s.bot);
  return s.name ?? s.bot ?? `p${seat}`;
}
