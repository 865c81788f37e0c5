// Screenshots for people to look at, each taken only after checking that the screen fits its
// width: nothing on the page reaches past the window's right edge (a table too wide for a
// phone scrolls inside its own box; a grid column that grows with its content pushes the
// whole page sideways, and the left of every panel is then cut off).
import { expect, type Page } from '@playwright/test';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const shots = resolve(dirname(fileURLToPath(import.meta.url)), '../test-results/screenshots');

/** What sticks out past the right edge of the window, or past ``main``'s box (named by tag,
 * test id or class, with by how many pixels); empty when the screen fits. */
export async function overflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const doc = document.documentElement;
    if (doc.scrollWidth > doc.clientWidth + 1) out.push(`the page: ${doc.scrollWidth} > ${doc.clientWidth}`);
    const main = document.querySelector('main');
    if (main && main.scrollWidth > main.clientWidth + 1) {
      const edge = main.getBoundingClientRect().right;
      const wide = [...main.querySelectorAll<HTMLElement>('*')].filter((el) => {
        const box = el.getBoundingClientRect();
        return box.width > 0 && box.right > edge + 1 && !el.closest('.scroll, .sr-only');
      });
      const name = (el: HTMLElement) => el.dataset.testid ?? (`${el.tagName.toLowerCase()}${el.className ? '.' + String(el.className).split(' ')[0] : ''}`);
      out.push(`main: ${main.scrollWidth} > ${main.clientWidth}: ${wide.slice(0, 5).map(name).join(', ')}`);
    }
    return out;
  });
}

/** Check the screen fits its width, then save a full-page screenshot as ``shots/name``. */
export async function shoot(page: Page, name: string): Promise<void> {
  expect(await overflow(page), `${name}: the screen is wider than the window`).toEqual([]);
  await page.screenshot({ path: resolve(shots, name), fullPage: true });
}
