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
  | { name: 'workshop'; game: string | null; tag: string | null; q: string; sort: string }
  | { name: 'workshop-entry'; id: number }
  | { name: 'workshop-publish'; entry: number | null }
  | { name: 'forum'; game: string | null }
  | { name: 'forum-thread'; id: number }
  | { name: 'tournaments' }
  | { name: 'tournament'; id: string }
  | { name: 'puzzles'; game: string | null; theme: string | null }
  | { name: 'puzzle'; id: string }
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
  return communityRoute(path, search);
}

/** A positive integer id of at most 12 digits, or null. */
function intId(text: string | undefined): number | null {
  return text && /^[1-9][0-9]{0,11}$/.test(text) ? Number(text) : null;
}

/** The community's pages (issue 26): the workshop, the forum and the tournaments. */
function communityRoute(path: string, search: string): Route {
  const q = new URLSearchParams(search);
  const slug = (v: string | null) => (v && /^[a-z0-9_-]{1,64}$/.test(v) ? v : null);
  if (path === '/workshop' || path === '/workshop/') {
    return {
      name: 'workshop', game: slug(q.get('game')), tag: slug(q.get('tag')),
      q: (q.get('q') ?? '').slice(0, 200), sort: slug(q.get('sort')) ?? 'newest',
    };
  }
  if (path === '/workshop/new' || path === '/workshop/new/') {
    return { name: 'workshop-publish', entry: intId(q.get('entry') ?? undefined) };
  }
  const we = /^\/workshop\/([0-9]{1,12})\/?$/.exec(path);
  if (we) {
    const id = intId(we[1]);
    return id === null ? { name: 'notfound' } : { name: 'workshop-entry', id };
  }
  const fb = /^\/forum(?:\/([a-z0-9_-]{1,64}))?\/?$/.exec(path);
  if (fb) return { name: 'forum', game: fb[1] ?? null };
  const ft = /^\/forum\/threads\/([0-9]{1,12})\/?$/.exec(path);
  if (ft) {
    const id = intId(ft[1]);
    return id === null ? { name: 'notfound' } : { name: 'forum-thread', id };
  }
  if (path === '/tournaments' || path === '/tournaments/') return { name: 'tournaments' };
  const puzzles = (game: string | null): Route => {
    const theme = q.get('theme');
    return { name: 'puzzles', game, theme: theme && /^[a-z0-9_.-]{1,128}$/.test(theme) ? theme : null };
  };
  if (path === '/puzzles' || path === '/puzzles/') return puzzles(slug(q.get('game')));
  const pz = /^\/puzzles\/([A-Za-z0-9_-]{1,64})\/?$/.exec(path);
  if (pz) {
    // a puzzle's id is hex (dragonlair/puzzles/model.py); a game's name has other letters
    // too, and /puzzles/farkle means that game's puzzles, as /forum/farkle its forum
    const word = pz[1]!;
    if (!/^[0-9a-f]+$/.test(word) && /^[a-z][a-z0-9_-]*$/.test(word)) return puzzles(word);
    return { name: 'puzzle', id: word };
  }
  const tt = /^\/tournaments\/([A-Za-z0-9_-]{1,32})\/?$/.exec(path);
  if (tt) return { name: 'tournament', id: tt[1]! };
  return { name: 'notfound' };
}
