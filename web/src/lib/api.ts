// The lobby (REST, docs/protocol.md). Request bodies and answers are typed from the server's
// OpenAPI document (src/gen/openapi.ts, `npm run gen`: every route declares its answer's
// model, dragonlair/server/responses.py); none is written by hand here. Every refusal is an
// ApiError with the server's code.
import type { components, paths } from '../gen/openapi';

type Schemas = components['schemas'];
export type TableIn = Schemas['TableIn'];
export type SeatIn = Schemas['SeatIn'];
export type SeatSet = Schemas['SeatSet'];
export type Profile = Schemas['ProfileOut'];
export type Leaderboard = Schemas['LeaderboardOut'];
export type TableRatings = Schemas['TableRatingsOut'];
export type ErrorOut = Schemas['ErrorOut'];
export type Rules = Schemas['RulesOut'];
export type Tips = Schemas['TipsOut'];
export type ApiPath = keyof paths;

export type OptionSpec = Schemas['OptionSpecOut'];
/** the check of an option's file (POST /api/games/{game}/options/{name}/file) */
export type OptionFile = Schemas['OptionFileOut'];
export type FileProblem = Schemas['FileProblemOut'];
/** a game of the registry (GET /api/games): every list of games in the client comes from it */
export type GameInfo = Schemas['GameOut'];

export type SeatInfo = Schemas['TableSeatOut'];
export type TableInfo = Schemas['TableInfoOut'];
/** the signed-in account; ``profile``: where its profile is (its username, ``@<id>`` for a guest) */
export type Me = Schemas['AccountOut'];
export type Invite = Schemas['InviteOut'];
export type Ok = Schemas['OkOut'];
export type RematchNote = Schemas['RematchNote'];
/** A finished table's replay from one perspective (dragonlair/server/history.py). */
export type Replay = Schemas['ReplayOut'];
export type ReplayStep = Schemas['ReplayStepOut'];
/** One answer of a tutorial (dragonlair/server/learn.py). */
export type TutorialStep = Schemas['TutorialStepOut'];
export type Hint = Schemas['HintOut'];
export type HintOption = Schemas['HintOptionOut'];
export type Analysis = Schemas['AnalysisOut'];
export type AnalysedDecision = Schemas['AnalysedDecisionOut'];

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorOut,
  ) {
    super(body.code);
  }
}

export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method, credentials: 'same-origin', headers: {} };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { 'content-type': 'application/json' };
  }
  const r = await fetch(path, init);
  const text = await r.text();
  const data: unknown = text ? JSON.parse(text) : null;
  if (!r.ok) {
    const err = (data && typeof data === 'object' && 'code' in data ? data : { code: 'server.request.failed', params: { status: r.status }, rule: null }) as ErrorOut;
    throw new ApiError(r.status, err);
  }
  return data as T;
}

let gameList: Promise<GameInfo[]> | null = null;

export const api = {
  me: () => call<Me>('GET', '/api/me'),
  guest: (display_name?: string, lang?: string) =>
    call<Me>('POST', '/api/auth/guest', { ...(display_name ? { display_name } : {}), ...(lang ? { lang } : {}) }),
  register: (body: Schemas['RegisterIn']) => call<Me>('POST', '/api/auth/register', body),
  login: (body: Schemas['LoginIn']) => call<Me>('POST', '/api/auth/login', body),
  logout: () => call<Ok>('POST', '/api/auth/logout'),
  rename: (display_name: string) => call<Me>('PATCH', '/api/me', { display_name }),
  password: (current: string, next: string) => call<Ok>('POST', '/api/me/password', { current, new: next }),
  games: () => call<GameInfo[]>('GET', '/api/games'),
  /** the registry's games, asked once per page load (they change only with the server) */
  gameList: () => (gameList ??= call<GameInfo[]>('GET', '/api/games').catch((e: unknown) => { gameList = null; throw e; })),
  tables: (status: string[] = ['open', 'running'], game?: string) => {
    const q = new URLSearchParams();
    for (const s of status) q.append('status', s);
    if (game) q.set('game', game);
    q.set('limit', '50');
    return call<TableInfo[]>('GET', `/api/tables?${q.toString()}`);
  },
  table: (id: string) => call<TableInfo>('GET', `/api/tables/${encodeURIComponent(id)}`),
  create: (body: TableIn) => call<Schemas['NewTableOut']>('POST', '/api/tables', body),
  join: (id: string, body: Schemas['JoinIn'] = {}) => call<TableInfo>('POST', `/api/tables/${encodeURIComponent(id)}/join`, body),
  leave: (id: string) => call<TableInfo>('POST', `/api/tables/${encodeURIComponent(id)}/leave`),
  start: (id: string) => call<TableInfo>('POST', `/api/tables/${encodeURIComponent(id)}/start`),
  rematch: (id: string) => call<RematchNote>('POST', `/api/tables/${encodeURIComponent(id)}/rematch`),
  declineRematch: (id: string) => call<RematchNote>('POST', `/api/tables/${encodeURIComponent(id)}/rematch/decline`),
  setSeat: (id: string, seat: number, body: SeatSet) =>
    call<Schemas['SetSeatOut']>('PUT', `/api/tables/${encodeURIComponent(id)}/seats/${seat}`, body),
  profile: (username: string) => call<Profile>('GET', `/api/users/${encodeURIComponent(username)}`),
  tableRatings: (id: string) => call<TableRatings>('GET', `/api/tables/${encodeURIComponent(id)}/ratings`),
  leaderboard: (game: string) => call<Leaderboard>('GET', `/api/leaderboard/${encodeURIComponent(game)}`),
  finished: (offset = 0, game?: string) => {
    const q = new URLSearchParams({ status: 'finished', limit: '25', offset: String(offset) });
    if (game) q.set('game', game);
    return call<TableInfo[]>('GET', `/api/tables?${q.toString()}`);
  },
  replay: (id: string, at: number | null, as: 'seat' | 'spectator') => {
    const q = new URLSearchParams({ as, record: 'false' }); // the steps and views suffice
    if (at !== null) q.set('at', String(at));
    return call<Replay>('GET', `/api/tables/${encodeURIComponent(id)}/replay?${q.toString()}`);
  },
  hint: (id: string) => call<Schemas['TableHintOut']>('POST', `/api/tables/${encodeURIComponent(id)}/hint`),
  analysis: (id: string, seat: number) => call<Analysis>('GET', `/api/tables/${encodeURIComponent(id)}/analysis?seat=${seat}`),
  tutorial: (game: string, body: { progress?: (string | null)[]; move?: string; read?: boolean }) =>
    call<TutorialStep>('POST', `/api/tutorials/${encodeURIComponent(game)}`, body),
  tutorialHint: (game: string, progress: (string | null)[]) =>
    call<Schemas['TutorialHintOut']>('POST', `/api/tutorials/${encodeURIComponent(game)}/hint`, { progress }),
  rules: (game: string, lang: string) =>
    call<Rules>('GET', `/api/games/${encodeURIComponent(game)}/rules?lang=${encodeURIComponent(lang)}`),
  optionFile: (game: string, name: string, filename: string, text: string) =>
    call<OptionFile>('POST', `/api/games/${encodeURIComponent(game)}/options/${encodeURIComponent(name)}/file`, { filename, text } satisfies Schemas['OptionFileIn']),
  tips: (game: string, lang: string) =>
    call<Tips>('GET', `/api/games/${encodeURIComponent(game)}/tips?lang=${encodeURIComponent(lang)}`),
  // Web Push (lib/push.ts)
  pushKey: () => call<Schemas['KeyOut']>('GET', '/api/push/key'),
  pushSubscribe: (body: Schemas['SubscriptionIn']) => call<Schemas['SubscriptionOut']>('POST', '/api/push/subscriptions', body),
  pushUnsubscribe: (id: number) => call<Ok>('DELETE', `/api/push/subscriptions/${id}`),
};

let meCache: Promise<Me> | null = null;
let meListener: ((me: Me | null) => void) | null = null;

/** Who is told when the account changes (the account menu). */
export function onMe(listener: (me: Me | null) => void): void {
  meListener = listener;
}

/** The account is now ``me`` (signed up, renamed; ``null``: signed out). */
export function rememberMe(me: Me | null): void {
  meCache = me ? Promise.resolve(me) : null;
  meListener?.(me);
}

/** The signed-in account, or a new guest account (a browser plays as a guest at once),
 * named in the page's language. */
export function ensureMe(): Promise<Me> {
  meCache ??= api
    .me()
    .catch(async (e: unknown) => {
      if (e instanceof ApiError && e.status === 401) return api.guest(undefined, globalThis.document?.documentElement.lang || undefined);
      meCache = null;
      throw e;
    })
    .then((me) => {
      meListener?.(me);
      return me;
    });
  return meCache;
}
