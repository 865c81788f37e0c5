// End-to-end tests in a real browser: Debian's Chromium (/usr/bin/chromium; Playwright's own
// browser download is not used), against a real `dragonlair serve` on 127.0.0.1 that
// e2e/global-setup.ts starts on a free port with a temporary data folder.
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'e2e',
  // PW_OUT: another folder for a second run beside this one (with its own TMPDIR: global-setup.ts)
  outputDir: process.env.PW_OUT ?? 'test-results/playwright',
  globalSetup: './e2e/global-setup.ts',
  globalTeardown: './e2e/global-teardown.ts',
  timeout: 120_000,
  // two browsers at once (E2E_WORKERS to change it): the run is bound by Chromium's CPU, and
  // one worker left a quarter of the 2-core machine idle; two took the whole run from 10.3 to
  // 8.1 min there (every spec makes its own people and tables, so none sees another's)
  workers: Number(process.env.E2E_WORKERS ?? 2),
  reporter: [['list']],
  // e2e/visual.spec.ts: the committed pictures beside the spec, one per name on every machine
  // (the fonts are the bundle's own); a picture differs when more than 0.2 % of its pixels do
  snapshotPathTemplate: '{testDir}/{testFilePath}-snapshots/{arg}{ext}',
  expect: {
    toHaveScreenshot: { animations: 'disabled', caret: 'hide', scale: 'css', maxDiffPixelRatio: 0.002 },
  },
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
});
