// Vite builds the client into the Python package (dragonlair/web/dist: package data served by
// `dragonlair serve`). The catalogues are exported from the .po files into public/i18n first.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig, type Plugin } from 'vite';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..');

/** The Python that can import dragonlair (Babel is all the export needs). */
export function python(): string {
  if (process.env.DRAGONLAIR_PYTHON) return process.env.DRAGONLAIR_PYTHON;
  const venv = resolve(repo, '.venv/bin/python');
  return existsSync(venv) ? venv : 'python3';
}

function catalogues(): Plugin {
  return {
    name: 'dragonlair-catalogues',
    buildStart() {
      execFileSync(python(), ['-m', 'dragonlair.web', 'catalogues', resolve(here, 'public/i18n')], {
        // the clone's sources first; then what the caller set (setup.py passes the paths of
        // pip's isolated build environment, where Babel is)
        env: { ...process.env, PYTHONPATH: [repo, process.env.PYTHONPATH].filter(Boolean).join(delimiter) },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
    },
  };
}

const server = process.env.DRAGONLAIR_URL ?? 'http://127.0.0.1:8000';

export default defineConfig({
  plugins: [catalogues(), svelte()],
  build: {
    // DRAGONLAIR_WEB_OUT: another folder (served with DRAGONLAIR_WEB_DIST=that folder)
    outDir: process.env.DRAGONLAIR_WEB_OUT ?? resolve(repo, 'dragonlair/web/dist'),
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: true,
    // two pages: the client (index.html), and the gallery of game states (gallery.html,
    // web/README.md: static, read by e2e/visual.spec.ts; never loaded by the client)
    rolldownOptions: {
      input: { index: resolve(here, 'index.html'), gallery: resolve(here, 'gallery.html') },
    },
  },
  server: {
    proxy: {
      '/api': server,
      '/ws': { target: server.replace(/^http/, 'ws'), ws: true },
    },
  },
});
