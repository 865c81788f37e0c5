// The routes themselves are parsed in route.ts (pure: tested in route.test.ts).
import { parseRoute, type Route } from './route';

export { parseRoute, type Route };

export const router = $state<{ route: Route; hash: string }>({
  route: parseRoute(globalThis.location?.pathname ?? '/', globalThis.location?.search ?? ''),
  hash: globalThis.location?.hash ?? '',
});

export function navigate(path: string, replace = false): void {
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  router.route = parseRoute(location.pathname, location.search);
  router.hash = location.hash;
  window.scrollTo(0, 0);
}

globalThis.addEventListener?.('popstate', () => {
  router.route = parseRoute(location.pathname, location.search);
  router.hash = location.hash;
});

/** The invite token of a link <server>/tables/{id}#invite=<token> (the fragment never
 * reaches a server). */
export function inviteToken(hash: string): string | null {
  const m = /(?:^#|&)invite=([A-Za-z0-9_-]{16,128})/.exec(hash);
  return m ? m[1]! : null;
}
