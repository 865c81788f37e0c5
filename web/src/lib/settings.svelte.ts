// The reader's settings, kept in localStorage: language and animations.
const KEY = 'dragonlair.settings';

interface Stored {
  lang: string | null;
  animations: boolean;
}

function load(): Stored {
  try {
    const raw = globalThis.localStorage?.getItem(KEY);
    if (raw) {
      const v = JSON.parse(raw) as Partial<Stored>;
      return { lang: typeof v.lang === 'string' ? v.lang : null, animations: v.animations !== false };
    }
  } catch {
    /* no storage: defaults */
  }
  const reduced = globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  return { lang: null, animations: !reduced };
}

export const settings = $state<Stored>(load());

export function saveSettings(): void {
  try {
    globalThis.localStorage?.setItem(KEY, JSON.stringify(settings));
  } catch {
    /* private mode: the choice lasts this page */
  }
}
