// Visual regression (issue 25): each game's key states — the start, a decision, the reveal, the
// end — in English and German, at 360 px and 1280 px wide, compared with the committed
// pictures in e2e/visual.spec.ts-snapshots/ (Playwright's toHaveScreenshot).
//
// The states are drawn by the gallery (gallery.html, src/gallery/; web/README.md, "Gallery"):
// the real game screens from real engine views stored as fixtures, not games played through
// the server (slow and timing-dependent). It needs only the built files: every request of the
// page is answered here from the build folder ($DRAGONLAIR_WEB_DIST, else $DRAGONLAIR_WEB_OUT,
// else dragonlair/web/dist),
// under an address of its own; the API answers 404 (the end panel's ratings: a friendly table).
// The fonts are the bundle's own (Noto Sans, src/app.css), animations are off (the gallery's
// setting, reduced motion, and Playwright's `animations: 'disabled'`), nothing on these
// screens depends on the time (no clocks, no presence countdowns).
//
// A change of a picture is reviewed, not accepted blindly:
//   npm run visual           # the diffs: PW_OUT (test-results/playwright): expected, actual, diff
//   npm run visual:update    # build, then write the pictures that differ; look at each before
//                            # committing (git diff --stat e2e/visual.spec.ts-snapshots/)
import { expect, test, type Page, type Route } from '@playwright/test';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, extname, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const DIST = resolve(process.env.DRAGONLAIR_WEB_DIST ?? process.env.DRAGONLAIR_WEB_OUT ?? resolve(dirname(fileURLToPath(import.meta.url)), '../../dragonlair/web/dist'));
/** the gallery's own address: nothing listens there, every request is answered by `serve` */
const ORIGIN = 'http://gallery.dragonlair.test';

const GAMES = ['fist', 'master', 'farkle'] as const;
const STATES = ['start', 'decision', 'reveal', 'end'] as const;
const LANGS = ['en', 'de'] as const;
const WIDTHS = { 360: { width: 360, height: 740 }, 1280: { width: 1280, height: 800 } } as const;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.json': 'application/json', '.svg': 'image/svg+xml', '.woff2': 'font/woff2', '.png': 'image/png', '.webp': 'image/webp',
};

/** A request of the gallery page, answered from the build folder (the API: 404). */
async function serve(route: Route): Promise<void> {
  const path = decodeURIComponent(new URL(route.request().url()).pathname);
  const file = resolve(DIST, `.${path === '/' ? '/gallery.html' : path}`);
  if (path.startsWith('/api/') || !file.startsWith(DIST + sep) || !existsSync(file)) {
    await route.fulfill({ status: 404, contentType: 'application/json', body: '{"detail":"not found"}' });
    return;
  }
  await route.fulfill({ status: 200, contentType: TYPES[extname(file)] ?? 'application/octet-stream', body: readFileSync(file) });
}

async function show(page: Page, key: string): Promise<void> {
  await page.evaluate((k) => (location.hash = k), key);
  await page.locator(`html[data-gallery-ready="${key}"]`).waitFor({ state: 'attached' });
}

test.describe('visual', () => {
  test.skip(!existsSync(resolve(DIST, 'gallery.html')), `no gallery in ${DIST} (npm run build)`);
  test.use({ reducedMotion: 'reduce', colorScheme: 'light', deviceScaleFactor: 1, locale: 'en-US' });

  for (const [width, viewport] of Object.entries(WIDTHS)) {
    for (const lang of LANGS) {
      test(`every game's key states in ${lang} at ${width} px`, async ({ page }) => {
        await page.setViewportSize(viewport);
        await page.route(`${ORIGIN}/**`, serve);
        const failed: string[] = [];
        page.on('pageerror', (e) => failed.push(String(e)));
        await page.goto(`${ORIGIN}/gallery.html`);
        await page.locator('html[data-gallery-ready="//"]').waitFor({ state: 'attached' });
        for (const game of GAMES) {
          for (const state of STATES) {
            await show(page, `${lang}/${game}/${state}`);
            await expect(page.locator('html')).toHaveAttribute('lang', lang);
            // the state is what it says: the end panel at the end only, the game's screen drawn
            await expect(page.getByTestId('gallery-state')).toHaveAttribute('data-status', state === 'end' ? 'finished' : 'running');
            await expect(page.getByTestId('end')).toHaveCount(state === 'end' ? 1 : 0);
            await expect.soft(page).toHaveScreenshot(`${game}-${state}-${lang}-${width}.png`, { fullPage: true });
          }
        }
        expect(failed, 'errors in the page').toEqual([]);
      });
    }
  }
});
