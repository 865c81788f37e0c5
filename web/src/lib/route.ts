// Client routes (the server answers index.html on each: dragonlair/web CLIENT_ROUTES).
export type Route =
  | { name: 'home' }
  | { name: 'settings' }
  | { name: 'table'; id: string }
  | { name: 'replay'; id: string }
  | { name: 'replays' }
  | { name: 'leaderboard'; game: string | null }
  | { name: 'profile'; username: string }
  | { name: 'rules'; game: string; table: string | null }
  | { name: 'learn'; game: string }
  | { name: 'tips'; game: string }
  | { name: 'characters' }
  | { name: 'notfound' };

/** The route of an address: its path, and for the rules its query's `table` (the table whose
 * own characters the page lists as well). */
export function parseRoute(path: string, search = ''): Route {
  if (path === '/' || path === '') return { name: 'home' };
  if (path === '/settings') return { name: 'settings' };
  if (path === '/characters' || path === '/characters/') return { name: 'characters' };
  const m = /^\/tables\/([A-Za-z0-9_-]{1,32})\/?$/.exec(path);
  if (m) return { name: 'table', id: m[1]! };
  const r = /^\/tables\/([A-Za-z0-9_-]{1,32})\/replay\/?$/.exec(path);
  if (r) return { name: 'replay', id: r[1]! };
  if (path === '/replays' || path === '/replays/') return { name: 'replays' };
  const lb = /^\/leaderboards(?:\/([a-z0-9_-]{1,64}))?\/?$/.exec(path);
  if (lb) return { name: 'leaderboard', game: lb[1] ?? null };
  const u = /^\/users\/([^/]{1,64})\/?$/.exec(path);
  if (u) {
    try {
      return { name: 'profile', username: decodeURIComponent(u[1]!) };
    } catch {
      return { name: 'notfound' };
    }
  }
  // /rules alone: the rules of the registry's first game (the screen picks it)
  const rules = /^\/rules(?:\/([a-z0-9_-]{1,64}))?\/?$/.exec(path);
  if (rules) {
    const table = new URLSearchParams(search).get('table');
    return { name: 'rules', game: rules[1] ?? '', table: table && /^[A-Za-z0-9_-]{1,32}$/.test(table) ? table : null };
  }
  const learn = /^\/learn\/([a-z0-9_-]{1,64})\/?$/.exec(path);
  if (learn) return { name: 'learn', game: learn[1]! };
  const tips = /^\/tips\/([a-z0-9_-]{1,64})\/?$/.exec(path);
  if (tips) return { name: 'tips', game: tips[1]! };
  return { name: 'notfound' };
}
