// The first page's compressed size: the JS and CSS index.html loads (not the lazy game
// chunks), gzipped at level 9. Fails above the budget (250 KB, issue 14).
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const dist = resolve(dirname(fileURLToPath(import.meta.url)), '../../dragonlair/web/dist');
const html = readFileSync(resolve(dist, 'index.html'), 'utf-8');
const files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
let total = 0;
for (const f of files) {
  const n = gzipSync(readFileSync(resolve(dist, f)), { level: 9 }).length;
  total += n;
  console.log(`${f}: ${(n / 1024).toFixed(1)} KiB gzip`);
}
console.log(`first page JS+CSS: ${(total / 1024).toFixed(1)} KiB gzip (budget 250 KB)`);
if (total > 250_000) process.exit(1);
