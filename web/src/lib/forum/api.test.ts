import { describe, expect, it } from 'vitest';
import { actions, ago, boardPath, markHidden, pageList, replacePost, threadPath, type Post } from './api';

function post(over: Partial<Post> = {}): Post {
  return {
    id: 1, thread_id: 7, author: { id: 3, name: 'Ann', profile: 'ann' }, body: 'hi', html: '<p>hi</p>',
    created_at: 1000, edited_at: null, deleted: false, hidden: false, reply_to: null, quote: null, mine: false,
    ...over,
  };
}

describe('forum helpers', () => {
  it('says how long ago, in the language', () => {
    const now = 1_000_000 * 1000;
    expect(ago(1_000_000 - 10, now, 'en')).toBe('now');
    expect(ago(1_000_000 - 120, now, 'en')).toBe('2 minutes ago');
    expect(ago(1_000_000 - 3 * 3600, now, 'de')).toBe('vor 3 Stunden');
    expect(ago(1_000_000 - 86400, now, 'en')).toBe('yesterday');
    expect(ago(1_000_000 - 30 * 86400, now, 'en')).toMatch(/\d/);
  });

  it('offers each reader what they may do with a post', () => {
    expect(actions(post({ mine: true }), true, false)).toEqual(
      { quote: true, edit: true, remove: true, report: false, hide: false, restore: false });
    expect(actions(post(), true, false)).toEqual(
      { quote: true, edit: false, remove: false, report: true, hide: false, restore: false });
    expect(actions(post(), false, false)).toEqual(
      { quote: false, edit: false, remove: false, report: false, hide: false, restore: false });
    expect(actions(post({ hidden: true }), true, true)).toMatchObject({ quote: false, hide: false, restore: true });
    // a closed thread: no quoting (nowhere to reply), the rest as before
    expect(actions(post({ mine: false }), true, false, false)).toMatchObject(
      { quote: false, edit: false, remove: false, report: true });
    expect(actions(post({ deleted: true, mine: true }), true, false)).toMatchObject({ edit: false, remove: false, quote: false });
  });

  it('replaces and marks posts in place', () => {
    const posts = [post({ id: 1 }), post({ id: 2 })];
    expect(replacePost(posts, post({ id: 2, body: 'new' })).map((p) => p.body)).toEqual(['hi', 'new']);
    expect(markHidden(posts, 1, true).map((p) => p.hidden)).toEqual([true, false]);
    expect(posts.map((p) => p.hidden)).toEqual([false, false]);
  });

  it('lists pages around the current one', () => {
    expect(pageList(1, 1)).toEqual([1]);
    expect(pageList(5, 10)).toEqual([1, 3, 4, 5, 6, 7, 10]);
    expect(pageList(1, 3)).toEqual([1, 2, 3]);
  });

  it('builds the paths', () => {
    expect(boardPath('fist')).toBe('/forum/fist');
    expect(threadPath(12)).toBe('/forum/threads/12');
  });
});
