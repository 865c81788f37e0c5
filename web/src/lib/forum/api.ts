// The forum and moderation over REST (docs/forum.md; dragonlair/server/forum/api.py). The
// shapes are the server's own (src/gen/openapi.ts). A post's HTML comes sanitised from the
// server (markdown-it, then nh3): the client shows it as it is and renders no Markdown.
import { call } from '../api';
import type { components } from '../../gen/openapi';

type Schemas = components['schemas'];
export type Post = Schemas['PostOut'];
export type Thread = Schemas['ThreadOut'];
export type ThreadPage = Schemas['ThreadPageOut'];
export type EntryThread = Schemas['EntryThreadOut'];
export type Board = Schemas['BoardOut'];
export type NewPost = Schemas['NewPostOut'];
export type Report = Schemas['ReportOut'];
export type LogLine = Schemas['LogOut'];
export type ModKind = 'post' | 'thread' | 'entry';

/** The server's default bounds (Limits.max_forum_*): the counters under the text boxes. The
 * server's own are what count (422 server.forum.too_long). */
export const MAX_TITLE = 120;
export const MAX_BODY = 10_000;
export const MAX_REASON = 500;

const enc = encodeURIComponent;

export const forum = {
  board: (game: string, page = 1) => call<Board>('GET', `/api/forum/${enc(game)}/threads?page=${page}`),
  newThread: (game: string, title: string, body: string) =>
    call<NewPost>('POST', `/api/forum/${enc(game)}/threads`, { title, body } satisfies Schemas['ThreadIn']),
  thread: (id: number, page = 1) => call<ThreadPage>('GET', `/api/forum/threads/${id}?page=${page}`),
  entryThread: (entry: number, page = 1) => call<EntryThread>('GET', `/api/forum/entries/${entry}/thread?page=${page}`),
  reply: (thread: number, body: Schemas['PostIn']) => call<NewPost>('POST', `/api/forum/threads/${thread}/posts`, body),
  entryPost: (entry: number, body: Schemas['PostIn']) => call<NewPost>('POST', `/api/forum/entries/${entry}/posts`, body),
  edit: (post: number, body: string) => call<Post>('PATCH', `/api/forum/posts/${post}`, { body }),
  remove: (post: number) => call<Post>('DELETE', `/api/forum/posts/${post}`),
  preview: (body: string) => call<Schemas['PreviewOut']>('POST', '/api/forum/preview', { body }),
  report: (kind: ModKind, id: number, reason: string) =>
    call<Schemas['ReportDoneOut']>('POST', '/api/forum/reports', { kind, id, reason } satisfies Schemas['ReportIn']),
  // moderators
  reports: () => call<Schemas['ReportsOut']>('GET', '/api/mod/reports'),
  hide: (kind: ModKind, id: number) => call<Schemas['ModDoneOut']>('POST', `/api/mod/${kind}/${id}/hide`),
  restore: (kind: ModKind, id: number) => call<Schemas['ModDoneOut']>('POST', `/api/mod/${kind}/${id}/restore`),
  lock: (threadId: number, locked: boolean) =>
    call<Schemas['LockDoneOut']>('POST', `/api/mod/thread/${threadId}/${locked ? 'lock' : 'unlock'}`),
  resolve: (report: number) => call<Schemas['ReportDoneOut']>('POST', `/api/mod/reports/${report}/resolve`),
  log: (before?: number) => call<Schemas['LogPageOut']>('GET', `/api/mod/log${before ? `?before=${before}` : ''}`),
};

/** Where a game's board and a thread are in the browser. */
export const boardPath = (game: string): string => `/forum/${enc(game)}`;
export const threadPath = (id: number): string => `/forum/threads/${id}`;

/** A time (seconds since the epoch) as "3 minutes ago", in ``lang``, seen at ``nowMs``; older
 * than a week: the date. */
export function ago(seconds: number, nowMs: number, lang: string): string {
  const diff = Math.round(seconds - nowMs / 1000);
  const past = -diff;
  if (past > 7 * 86400) return new Date(seconds * 1000).toLocaleDateString(lang);
  const rtf = new Intl.RelativeTimeFormat(lang, { numeric: 'auto' });
  if (past < 45) return rtf.format(0, 'second');
  if (past < 3600) return rtf.format(Math.round(diff / 60), 'minute');
  if (past < 86400) return rtf.format(Math.round(diff / 3600), 'hour');
  return rtf.format(Math.round(diff / 86400), 'day');
}

/** A post replaced by another version of it (an edit, a delete, a hide), in order. */
export function replacePost(posts: readonly Post[], post: Post): Post[] {
  return posts.map((p) => (p.id === post.id ? post : p));
}

/** The posts with ``id`` marked hidden or not (a moderator's hide or restore). */
export function markHidden(posts: readonly Post[], id: number, hidden: boolean): Post[] {
  return posts.map((p) => (p.id === id ? { ...p, hidden } : p));
}

/** What a reader may do with a post: its author edits and deletes a post not deleted;
 * signed-in writers quote, answer and report posts that are neither deleted nor their own
 * (quote: their own too); moderators hide or restore. */
export function actions(post: Post, writer: boolean, moderator: boolean, replying = writer): {
  quote: boolean; edit: boolean; remove: boolean; report: boolean; hide: boolean; restore: boolean;
} {
  const live = !post.deleted;
  return {
    quote: writer && replying && live && !post.hidden,
    edit: writer && live && post.mine,
    remove: writer && live && post.mine,
    report: writer && live && !post.mine,
    hide: moderator && !post.hidden,
    restore: moderator && post.hidden,
  };
}

/** The pages to offer around ``page`` of ``pages``: the first, the last, and two each side. */
export function pageList(page: number, pages: number): number[] {
  const out = new Set<number>([1, pages]);
  for (let p = page - 2; p <= page + 2; p++) if (p >= 1 && p <= pages) out.add(p);
  return [...out].sort((a, b) => a - b);
}
