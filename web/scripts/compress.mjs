// Precompresses the built client (dragonlair/web/dist) after `vite build`: beside every
// text file (HTML, JS, CSS, JSON catalogues, SVG...) NAME.br (brotli, quality 11) and
// NAME.gz (gzip, level 9), each only where it is smaller than the file. `dragonlair serve`
// sends them to browsers that accept them (dragonlair/web/__init__.py), as nginx's
// gzip_static/brotli_static do (deploy/nginx). Node's own zlib: no dependency.
//   node scripts/compress.mjs [DIR]   (default: $DRAGONLAIR_WEB_OUT, where vite.config.ts built, else
//                                      dragonlair/web/dist)
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.txt', '.map', '.webmanifest', '.xml', '.wasm']);
const dist = resolve(process.argv[2] ?? process.env.DRAGONLAIR_WEB_OUT ?? join(dirname(fileURLToPath(import.meta.url)), '../../dragonlair/web/dist'));

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

let plain = 0;
let brotli = 0;
let count = 0;
for (const path of [...files(dist)]) {
  if (!COMPRESSIBLE.has(extname(path))) continue;
  const data = readFileSync(path);
  const variants = [
    ['.br', brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } })],
    ['.gz', gzipSync(data, { level: 9 })],
  ];
  for (const [suffix, packed] of variants) {
    if (packed.length < data.length) writeFileSync(path + suffix, packed);
    else rmSync(path + suffix, { force: true });
  }
  plain += data.length;
  brotli += Math.min(data.length, variants[0][1].length);
  count += 1;
}
console.log(`compress: ${count} files, ${plain} B -> ${brotli} B brotli (${dist})`);
