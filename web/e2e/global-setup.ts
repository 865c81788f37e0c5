// Starts `dragonlair serve --port 0` (the repo's .venv) with a temporary data folder: the
// system chooses a free 127.0.0.1 port, and the server prints it in its ready line once it
// listens (cli.serve_ready). The tests read its address from DRAGONLAIR_E2E_URL.
// global-teardown.ts stops it.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const STATE = join(tmpdir(), 'dragonlair-e2e-server.json');

/** The line `dragonlair serve` prints once it listens (always in English). */
const READY = /Dragonlair is running: open (http:\/\/127\.0\.0\.1:\d+)\/ in a browser/;

export default async function setup(): Promise<void> {
  const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
  const data = mkdtempSync(join(tmpdir(), 'dragonlair-e2e-'));
  const exe = process.env.DRAGONLAIR_SERVE ?? join(repo, '.venv/bin/dragonlair');
  const child = spawn(exe, ['serve', '--host', '127.0.0.1', '--port', '0', '--data', data], {
    cwd: repo,
    // away players may be replaced after 1 s (not 30): e2e/away.spec.ts asks for a short time;
    // a wide terminal, so that the ready line is never wrapped
    // DRAGONLAIR_PUZZLE_MINER=0: the server does not mine its finished games for puzzles here
    // (a quarter of a core beside the browser; tests/server/test_puzzles.py tests the miner,
    // and e2e/puzzles.spec.ts plays the shipped puzzles, which it still loads)
    env: { ...process.env, DRAGONLAIR_AWAY_SECONDS_MIN: '1', COLUMNS: '300', DRAGONLAIR_PUZZLE_MINER: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: false,
  });
  let log = '';
  child.stderr.on('data', (b: Buffer) => (log += b.toString()));
  let out = '';
  let ready = false;
  const url = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`dragonlair serve did not start in 60 s: ${out}${log}`)), 60_000);
    // read stdout to the end (a full pipe would stop the server), keep it until the ready line
    child.stdout.on('data', (b: Buffer) => {
      if (ready) return;
      out += b.toString();
      const match = READY.exec(out);
      if (match) {
        ready = true;
        clearTimeout(timer);
        ok(match[1]!);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`dragonlair serve exited (${String(code)}): ${out}${log}`));
    });
  });
  process.env.DRAGONLAIR_E2E_URL = url;
  writeFileSync(STATE, JSON.stringify({ pid: child.pid, url, data }));
}
