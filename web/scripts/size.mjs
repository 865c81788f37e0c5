// The first page's size on the wire: every file the first page loads (index.html, the JS and
// CSS it names — entry, modulepreloads, stylesheets —, the favicon, the catalogue index and
// the reader's catalogue, and the font files of its CSS that its language needs: each
// @font-face whose unicode-range holds a character of the language's catalogue, every weight),
// compressed as the server serves them: the precompressed brotli file
// (`.br`, written by scripts/compress.mjs after `vite build`) when there is one, else the gzip
// file, else the file itself. Fails above the budget (250 KB, issue 14).
//
//   node scripts/size.mjs                 # from dragonlair/web/dist (--dist DIR, or
//                                         # $DRAGONLAIR_WEB_OUT: another build), as served to
//                                         # a browser that accepts brotli
//   node scripts/size.mjs --url http://127.0.0.1:8000 [--lang de] [--encoding 'gzip']
//                                         # asks a running server, counts the bytes it sends
//                                         # (body as sent, compressed or not, and the response
//                                         # headers); adds the JSON the home page asks for
//                                         # (/api/games, /api/tables)
//   node scripts/size.mjs --json          # one JSON object instead of the table
import { existsSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const BUDGET = 250_000;
function arg(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
}
const dist = resolve(arg('--dist', null) ?? process.env.DRAGONLAIR_WEB_OUT ?? resolve(dirname(fileURLToPath(import.meta.url)), '../../dragonlair/web/dist'));
const url = arg('--url', null);
const lang = arg('--lang', 'en');
const encoding = arg('--encoding', 'br, gzip, deflate');
const asJson = process.argv.includes('--json');

/** The paths (from the site's root) the first page loads, index.html first. */
export function firstPage(html, language = 'en') {
  const named = [...html.matchAll(/<(?:script|link)\b[^>]*?(?:src|href)="\/([^"]+)"/g)].map((m) => m[1]);
  return ['', ...new Set(named), 'i18n/index.json', `i18n/${language}.json`];
}

/** The code points a `unicode-range` descriptor covers, as [first, last] pairs. */
export function ranges(descriptor) {
  return descriptor.split(',').map((part) => {
    const m = /^\s*U\+([0-9A-F?]+)(?:-([0-9A-F]+))?\s*$/i.exec(part);
    if (!m) throw new Error(`unicode-range: cannot read ${part}`);
    if (m[2]) return [parseInt(m[1], 16), parseInt(m[2], 16)];
    return [parseInt(m[1].replace(/\?/g, '0'), 16), parseInt(m[1].replace(/\?/g, 'F'), 16)];
  });
}

/** The font files (paths from the site's root) of the @font-face rules in `css` that a page
 * showing `text` loads: those with a unicode-range holding one of its characters (a rule
 * without one: always). Every weight and style counts (the page shows bold headings). */
export function fontsFor(css, text) {
  const points = [...new Set(text)].map((c) => c.codePointAt(0));
  const out = [];
  for (const [face] of css.matchAll(/@font-face\s*\{[^}]*\}/g)) {
    const src = /url\(\s*["']?\/([^"')]+?\.woff2)["']?\s*\)/.exec(face);
    if (!src) continue;
    const range = /unicode-range\s*:\s*([^;}]+)/.exec(face);
    const spans = range ? ranges(range[1]) : [[0, 0x10ffff]];
    if (points.some((p) => spans.some(([a, b]) => p >= a && p <= b))) out.push(src[1]);
  }
  return [...new Set(out)];
}

/** Every character the language's catalogue may show. */
function catalogueText(json) {
  return Object.values(JSON.parse(json).messages ?? {}).flat().join('');
}

/** What the server sends for `path` (raw bytes, not decoded) with its headers' size. */
function fetchRaw(base, path) {
  return new Promise((ok, fail) => {
    const req = request(new URL(`/${path}`, base), { headers: { 'Accept-Encoding': encoding } }, (res) => {
      let body = 0;
      res.on('data', (b) => (body += b.length));
      res.on('end', () => {
        let headers = `HTTP/1.1 ${res.statusCode} ${res.statusMessage}\r\n`.length + 2;
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          headers += res.rawHeaders[i].length + res.rawHeaders[i + 1].length + 4;
        }
        ok({ status: res.statusCode, body, headers, encoding: res.headers['content-encoding'] ?? 'identity' });
      });
    });
    req.on('error', fail);
    req.end();
  });
}

/** The size the server sends a browser that accepts brotli, from the files in dist. */
function fromDist(path) {
  const file = resolve(dist, path === '' ? 'index.html' : path);
  for (const [suffix, name] of [['.br', 'br'], ['.gz', 'gzip'], ['', 'identity']]) {
    if (existsSync(file + suffix)) return { status: 200, body: readFileSync(file + suffix).length, headers: 0, encoding: name };
  }
  throw new Error(`${path}: not in ${dist} (npm run build)`);
}

const html = url
  ? await (await fetch(new URL('/', url))).text()
  : readFileSync(resolve(dist, 'index.html'), 'utf-8');
const paths = firstPage(html, lang);
// the fonts the first page's stylesheets name for the characters of its language
const read = async (path) => (url ? await (await fetch(new URL(`/${path}`, url))).text() : readFileSync(resolve(dist, path), 'utf-8'));
const text = html + catalogueText(await read(`i18n/${lang}.json`));
for (const path of paths.filter((p) => p.endsWith('.css'))) {
  for (const font of fontsFor(await read(path), text)) if (!paths.includes(font)) paths.push(font);
}
if (url) paths.push('api/games', 'api/tables');

const rows = [];
for (const path of paths) {
  const r = url ? await fetchRaw(url, path) : fromDist(path);
  if (r.status !== 200) throw new Error(`/${path}: HTTP ${r.status}`);
  rows.push({ path: `/${path}`, ...r });
}
const body = rows.reduce((n, r) => n + r.body, 0);
const headers = rows.reduce((n, r) => n + r.headers, 0);
if (asJson) {
  console.log(JSON.stringify({ source: url ?? dist, encoding: url ? encoding : 'br', files: rows, body, headers, total: body + headers }));
} else {
  for (const r of rows) console.log(`${r.path.padEnd(52)} ${String(r.body).padStart(8)} B  ${r.encoding}`);
  const extra = url ? ` + ${headers} B of response headers = ${body + headers} B` : '';
  console.log(`first page: ${rows.length} files, ${body} B (${(body / 1024).toFixed(1)} KiB) of bodies${extra} (budget ${BUDGET / 1000} KB)`);
}
if (body > BUDGET) process.exit(1);
