// How seats and bots are named on screen: a person by their display name, a bot by its name
// in the catalogues (web.bot.<id>), in the reader's language.
import { t, tt } from './i18n.svelte';

export interface NamedSeat {
  kind: string;
  bot: string | null;
  name: string | null;
}

/** A bot's name in the reader's language: the client's catalogue (web.bot.<id>), else the
 * game's own (<game>.ui.bot.<id>, for a game installed as its own package), else its id. */
export function botLabel(id: string, game?: string): string {
  return tt(`web.bot.${id}`, game ? tt(`${game}.ui.bot.${id}`, id) : id);
}

/** What a bot does, in a few words (empty where the catalogues say nothing). */
export function botHelp(id: string): string {
  return tt(`web.bot.${id}.help`, '');
}

/** A seat by its number, counted from 1 as people count ("Seat 1" for seat 0). */
export function seatLabel(seat: number): string {
  return t('web.seat.label', { seat: seat + 1 });
}

/** A seat's name: a person's display name (kept when a bot took their seat over), a bot seat's
 * bot by its catalogue name, else the seat by its number ("Seat 1"). */
export function seatName(s: NamedSeat, seat: number): string {
  if (s.kind === 'bot' && s.bot && (s.name === null || s.name === s.bot)) return botLabel(s.bot);
  return s.name ?? (s.bot ? botLabel(s.bot) : seatLabel(seat));
}

/** The name of seat ``seat`` in a table's list of names, else the seat by its number. */
export function nameOf(names: readonly string[], seat: number): string {
  return names[seat] ?? seatLabel(seat);
}

/** The address of a person's profile page: their ``profile`` key (a username, or ``@<id>`` for
 * a guest, whose username is an internal handle nobody is shown). */
export function profilePath(profile: string): string {
  return `/users/${encodeURIComponent(profile).replace(/^%40/, '@')}`;
}

/** A game's name in the reader's language: the client's catalogue (web.game.<id>), else the
 * game's own (<id>.game.name: a game installed as its own package names itself), else its id. */
export function gameName(id: string): string {
  return tt(`web.game.${id}`, tt(`${id}.game.name`, id));
}

/** A table option's label: the client's catalogue (web.option.<game>.<name>), else the game's
 * own (<game>.ui.option.<name>), else the option's name. */
export function optionLabel(game: string, name: string): string {
  return tt(`web.option.${game}.${name}`, tt(`${game}.ui.option.${name}`, name));
}
