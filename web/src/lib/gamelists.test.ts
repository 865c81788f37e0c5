// Issue 23: every list of games in the client comes from the registry (GET /api/games), and
// no screen or library module branches on a game id: what differs between games is a
// property of the game's plugin (`rules`, `tips`, `characters_option`) or lives in the
// game's own folder (web/src/games/<game>/). This fails when a game id comes back as a string
// literal (or a template's first word) outside those folders.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const src = join(import.meta.dirname, '..');
const games = readdirSync(join(src, 'games')).filter((d) => statSync(join(src, 'games', d)).isDirectory());

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const path = join(dir, f);
    if (statSync(path).isDirectory()) return files(path);
    return /\.(ts|svelte)$/.test(f) && !/\.test\.ts$/.test(f) ? [path] : [];
  });
}

/** the places in `text` where a game id stands as a string literal of its own */
function gameLiterals(text: string, ids: readonly string[]): string[] {
  const found: string[] = [];
  for (const id of ids) {
    const literal = new RegExp(`(['"\`])${id}\\1`, 'g');
    for (const m of text.matchAll(literal)) found.push(m[0]);
  }
  return found;
}

describe('no hard-coded list of games (issue 23)', () => {
  it('knows the game folders', () => {
    expect(games.length).toBeGreaterThanOrEqual(3);
  });

  it('finds a game id as a literal, and not inside a longer word or a catalogue code', () => {
    expect(gameLiterals(`const games = ['fist', "master", \`farkle\`];`, games)).toHaveLength(3);
    expect(gameLiterals(`if (game === 'fist')`, games)).toEqual(["'fist'"]);
    expect(gameLiterals(`t('web.game.fist') + 'fisted' + t(\`web.game.\${g}\`)`, games)).toEqual([]);
  });

  for (const dir of ['screens', 'lib']) {
    it(`web/src/${dir} names no game id`, () => {
      const hits = files(join(src, dir)).flatMap((f) => gameLiterals(readFileSync(f, 'utf-8'), games).map((h) => `${f}: ${h}`));
      expect(hits).toEqual([]);
    });
  }
});
