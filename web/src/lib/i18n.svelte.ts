// The catalogues in the browser: /i18n/<lang>.json, exported from the .po files at build
// time (docs/i18n.md). Every word on screen goes through t(); nothing is written in TS.
import { pickLanguage, render, renderError, term, type Catalogue, type RenderOptions } from './format';
import { saveSettings, settings } from './settings.svelte';

const EMPTY: Catalogue = { lang: 'en', plural: '(n != 1)', messages: {} };

export const i18n = $state<{ lang: string; cat: Catalogue; en: Catalogue; languages: string[]; ready: boolean }>({
  lang: 'en',
  cat: EMPTY,
  en: EMPTY,
  languages: ['en'],
  ready: false,
});

const cache = new Map<string, Promise<Catalogue>>();

function fetchCatalogue(lang: string): Promise<Catalogue> {
  let p = cache.get(lang);
  if (!p) {
    p = fetch(`/i18n/${lang}.json`).then((r) => {
      if (!r.ok) throw new Error(`catalogue ${lang}: HTTP ${r.status}`);
      return r.json() as Promise<Catalogue>;
    });
    cache.set(lang, p);
  }
  return p;
}

/** Loads the language list, English (the fallback) and the reader's language. */
export async function initI18n(): Promise<void> {
  try {
    const r = await fetch('/i18n/index.json');
    if (r.ok) i18n.languages = (await r.json()) as string[];
  } catch {
    /* English only */
  }
  const lang = pickLanguage(settings.lang, globalThis.navigator?.languages ?? [], i18n.languages);
  i18n.en = await fetchCatalogue('en');
  await setLanguage(lang, false);
  i18n.ready = true;
}

export async function setLanguage(lang: string, remember = true): Promise<void> {
  const cat = lang === 'en' ? i18n.en : await fetchCatalogue(lang);
  i18n.cat = cat;
  i18n.lang = lang;
  document.documentElement.lang = lang;
  if (remember) {
    settings.lang = lang;
    saveSettings();
  }
}

const opts = (names?: readonly string[], cards?: Readonly<Record<string, string>>): RenderOptions => ({ names, fallback: i18n.en, cards });

/** A message of the catalogues, rendered in the reader's language; `cards` names the cards
 * the catalogue does not know (a Fist table's custom characters) by id. */
export function t(code: string, params: Record<string, unknown> = {}, names?: readonly string[], cards?: Readonly<Record<string, string>>): string {
  return render(i18n.cat, code, params, opts(names, cards));
}

/** An entry without params (a card's name). */
export function tt(code: string, fallback?: string): string {
  return term(i18n.cat, code, fallback, opts());
}

/** A refusal ({code, params, rule}) in the reader's language. */
export function terr(error: unknown, names?: readonly string[]): string {
  return renderError(i18n.cat, error, opts(names));
}
