// Starts `dragonlair serve` (the repo's .venv) on a free 127.0.0.1 port with a temporary data
// folder; the tests read its address from DRAGONLAIR_E2E_URL. global-teardown.ts stops it.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const STATE = join(tmpdir(), 'dragonlair-e2e-server.json');

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? ok(addr.port) : fail(new Error('no port'))));
    });
  });
}

export default async function setup(): Promise<void> {
  const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
  const port = await freePort();
  const data = mkdtempSync(join(tmpdir(), 'dragonlair-e2e-'));
  const exe = process.env.DRAGONLAIR_SERVE ?? join(repo, '.venv/bin/dragonlair');
  const child = spawn(exe, ['serve', '--host', '127.0.0.1', '--port', String(port), '--data', data], {
    cwd: repo,
    // away players may be replaced after 1 s (not 30): e2e/away.spec.ts asks for a short time
    env: { ...process.env, DRAGONLAIR_AWAY_SECONDS_MIN: '1' },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: false,
  });
  let log = '';
  child.stderr.on('data', (b: Buffer) => (log += b.toString()));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    try {
      const r = await fetch(`${url}/api/health`);
      if (r.ok) break;
    } catch {
      /* not up yet */
    }
    if (child.exitCode !== null) throw new Error(`dragonlair serve exited: ${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  process.env.DRAGONLAIR_E2E_URL = url;
  writeFileSync(STATE, JSON.stringify({ pid: child.pid, url, data }));
}
