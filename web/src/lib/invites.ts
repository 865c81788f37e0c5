// Invite links are shown once, in the answer that issues them (docs/server.md): the creator's
// browser keeps them for the tab's life to show in the table's lobby.
import type { Invite } from './api';

const KEY = (table: string) => `dragonlair.invites.${table}`;

export function rememberInvites(table: string, invites: Invite[]): void {
  if (!invites.length) return;
  const held = Object.fromEntries(knownInvites(table).map((i) => [i.seat, i]));
  for (const i of invites) held[i.seat] = i;
  try {
    sessionStorage.setItem(KEY(table), JSON.stringify(Object.values(held)));
  } catch {
    /* none kept */
  }
}

export function knownInvites(table: string): Invite[] {
  try {
    return JSON.parse(sessionStorage.getItem(KEY(table)) ?? '[]') as Invite[];
  } catch {
    return [];
  }
}
