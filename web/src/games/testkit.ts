// Test support (not shipped): the real catalogues read from the .po files, and the engine's
// fixtures, for the unit tests of the game screens' pure modules.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Catalogue } from '../lib/format';

const PACKAGE = join(import.meta.dirname, '..', '..', '..', 'dragonlair');

/** The folders holding a language's .po files: the shared dragonlair/locale/<lang> and each
 * built-in game's own dragonlair/games/<game>/locale/<lang> (docs/i18n.md). */
function catalogueDirs(lang: string): string[] {
  const games = join(PACKAGE, 'games');
  const own = readdirSync(games, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(games, d.name, 'locale', lang, 'LC_MESSAGES')))
    .map((d) => join(games, d.name, 'locale', lang, 'LC_MESSAGES'));
  return [join(PACKAGE, 'locale', lang, 'LC_MESSAGES'), ...own];
}

function unquote(s: string): string {
  return JSON.parse(s) as string;
}

/** One language's catalogue from every .po file of the language (as the build exports it). */
export function catalogue(lang: string): Catalogue {
  const messages: Record<string, string | string[]> = {};
  let plural = '(n != 1)';
  for (const path of catalogueDirs(lang).flatMap((dir) => readdirSync(dir).filter((f) => f.endsWith('.po')).map((f) => join(dir, f)))) {
    let id = '';
    let field = '';
    const forms: string[] = [];
    let str = '';
    const flush = () => {
      if (id) messages[id] = forms.length ? [...forms] : str;
      else {
        const m = /plural=([^;]*);/.exec(str);
        if (m?.[1]) plural = m[1].trim();
      }
      id = '';
      str = '';
      forms.length = 0;
    };
    let started = false;
    for (const raw of readFileSync(path, 'utf8').split('\n')) {
      const line = raw.trim();
      let m: RegExpExecArray | null;
      if ((m = /^msgid (".*")$/.exec(line))) {
        if (started) flush();
        started = true;
        id = unquote(m[1]!);
        field = 'id';
      } else if ((m = /^msgid_plural (".*")$/.exec(line))) {
        field = 'plural';
      } else if ((m = /^msgstr (".*")$/.exec(line))) {
        str = unquote(m[1]!);
        field = 'str';
      } else if ((m = /^msgstr\[(\d+)\] (".*")$/.exec(line))) {
        forms[Number(m[1])] = unquote(m[2]!);
        field = `form${m[1]!}`;
      } else if (/^".*"$/.test(line)) {
        const more = unquote(line);
        if (field === 'id') id += more;
        else if (field === 'str') str += more;
        else if (field.startsWith('form')) forms[Number(field.slice(4))] += more;
      }
    }
    if (started) flush();
  }
  return { lang, plural, messages };
}

export interface Fixture<V> {
  game: string;
  stage: string;
  seed: number;
  seat: number;
  names: string[];
  legal_actions: string[];
  view: V;
}

/** Every fixture of a game (src/games/<game>/fixtures/*.json, or of a folder in it: Fist's
 * `bids`). */
export function fixtures<V>(game: string, folder = ''): Fixture<V>[] {
  const dir = join(import.meta.dirname, game, 'fixtures', folder);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Fixture<V>);
}
