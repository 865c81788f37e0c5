// Rendering of catalogue messages, as dragonlair.core.i18n.render does (docs/i18n.md): a
// template in Python's format syntax whose fields name the code's params, with kinds
// ({seat:seat}, {card:card}, {cards:list-card}, {cause:error}...) and plural forms chosen by
// Intl.PluralRules for the catalogue's language. Pure functions: tested in format.test.ts.

export type Template = string | string[];

export interface Catalogue {
  lang: string;
  plural: string;
  messages: Record<string, Template>;
}

export interface RenderOptions {
  /** the seats' names (a seat shows as its name, else p2) */
  names?: readonly string[] | undefined;
  /** the English catalogue, used where this one lacks a message */
  fallback?: Catalogue | undefined;
  /** the names of cards the catalogue does not know, by id (a Fist table's custom characters,
   * F9), used by the `card` field kind before the catalogue */
  cards?: Readonly<Record<string, string>> | undefined;
}

// gettext numbers a language's plural forms in the order of its CLDR categories (Babel's
// to_gettext, which writes the catalogues' Plural-Forms): zero, one, two, few, many, other, each
// where the language has it. English and German: one -> 0, other -> 1.
const CLDR_ORDER: readonly Intl.LDMLPluralRule[] = ['zero', 'one', 'two', 'few', 'many', 'other'];
const pluralRules = new Map<string, { rules: Intl.PluralRules; order: Intl.LDMLPluralRule[] }>();

/** The index of the plural form for n in a catalogue of this language, from Intl.PluralRules. */
export function pluralIndex(lang: string, n: number): number {
  let entry = pluralRules.get(lang);
  if (!entry) {
    const rules = new Intl.PluralRules(lang);
    const used = rules.resolvedOptions().pluralCategories;
    entry = { rules, order: CLDR_ORDER.filter((c) => used.includes(c)) };
    pluralRules.set(lang, entry);
  }
  const index = entry.order.indexOf(entry.rules.select(n));
  return index < 0 ? entry.order.length - 1 : index;
}

function lookup(cat: Catalogue | undefined, code: string, n: number | undefined): string | undefined {
  const t = cat?.messages[code];
  if (t === undefined) return undefined;
  if (typeof t === 'string') return t;
  const index = n === undefined ? 0 : pluralIndex(cat!.lang, n);
  return t[Math.min(index, t.length - 1)] ?? t[0];
}

/** A catalogue entry without params (a card name, a colour), or the fallback. */
export function term(cat: Catalogue, code: string, fallback?: string, opts: RenderOptions = {}): string {
  return lookup(cat, code, undefined) ?? lookup(opts.fallback, code, undefined) ?? fallback ?? code;
}

/** The namespace of a code: fist for fist.bid.exceeds_unspent. */
export function gameOf(code: string): string {
  return code.split('.', 1)[0] ?? code;
}

/** A seat as messages name it: its name where names are given, else its number counted from 1
 * as people count (core.seat.numbered: "Player 3" for seat 2), never the engines' p2. */
function seatName(cat: Catalogue, seat: unknown, opts: RenderOptions): string {
  const names = opts.names;
  if (typeof seat === 'number' && names && seat >= 0 && seat < names.length) return names[seat]!;
  if (typeof seat === 'number' && Number.isInteger(seat) && seat >= 0) return render(cat, 'core.seat.numbered', { n: seat + 1 }, { ...opts, names: undefined });
  return String(seat);
}

function pyRepr(value: unknown): string {
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  return String(value);
}

function formatField(cat: Catalogue, game: string, value: unknown, kind: string, opts: RenderOptions): string {
  if (!kind) return value === null ? 'None' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (kind === 'seat') {
    if (value === -1) return term(cat, 'core.seat.chance_name', 'chance', opts);
    return seatName(cat, value, opts);
  }
  if (kind === 'error') return renderError(cat, value, opts);
  if (kind === 'file') return value ? String(value) : term(cat, 'core.record.this_record', 'the record', opts);
  if (kind === 'list' || kind.startsWith('list-')) {
    const items = Array.isArray(value) ? value : [];
    const inner = kind === 'list' ? '' : kind.slice(5);
    const parts = items.map((v) => formatField(cat, game, v, inner, opts));
    return parts.join(', ') || term(cat, 'core.nothing', '-', opts);
  }
  if (kind === 'card') {
    const id = String(value);
    const own = opts.cards && Object.hasOwn(opts.cards, id) ? opts.cards[id] : undefined;
    if (own !== undefined) return own;
    return term(cat, `${game}.card.${id}.name`, term(cat, `${game}.card.${id}`, id, opts), opts);
  }
  return term(cat, `${game}.${kind}.${String(value)}`, String(value), opts);
}

/** Fills a template: {name}, {name:kind}, {name!r}, {{ and }}. */
export function fill(cat: Catalogue, game: string, template: string, params: Record<string, unknown>, opts: RenderOptions = {}): string {
  return template.replace(/\{\{|\}\}|\{([^{}!:]*)(?:!(r|s))?(?::([^{}]*))?\}/g, (whole, name?: string, conv?: string, kind?: string) => {
    if (whole === '{{') return '{';
    if (whole === '}}') return '}';
    const key = name ?? '';
    if (!(key in params)) throw new Error(`missing field ${key}`);
    const value = params[key];
    if (conv === 'r') return pyRepr(value);
    return formatField(cat, game, value, kind ?? '', opts);
  });
}

/** The message of code with params; English where the language lacks it; the code and its
 * params where none has it (as the server's render does). */
export function render(cat: Catalogue, code: string, params: Record<string, unknown> = {}, opts: RenderOptions = {}): string {
  const n = typeof params.n === 'number' ? params.n : undefined;
  const template = lookup(cat, code, n) ?? lookup(opts.fallback, code, n);
  if (template === undefined) {
    const shown = Object.keys(params)
      .sort()
      .map((k) => `${k}=${String(params[k])}`)
      .join(', ');
    return shown ? `${code}(${shown})` : code;
  }
  try {
    return fill(cat, gameOf(code), template, params, opts);
  } catch {
    return template;
  }
}

/** An error as JSON ({code, params, rule}) with its rule suffix. */
export function renderError(cat: Catalogue, error: unknown, opts: RenderOptions = {}): string {
  if (typeof error !== 'object' || error === null || typeof (error as { code?: unknown }).code !== 'string') return String(error);
  const e = error as { code: string; params?: unknown; rule?: unknown };
  const params = typeof e.params === 'object' && e.params !== null ? (e.params as Record<string, unknown>) : {};
  let text = render(cat, e.code, params, opts);
  if (typeof e.rule === 'string' && e.rule) text += render(cat, 'core.rule_suffix', { rule: e.rule }, opts);
  return text;
}

/** The language to start in: a stored choice, else the browser's first supported one. */
export function pickLanguage(stored: string | null, browser: readonly string[], supported: readonly string[]): string {
  if (stored && supported.includes(stored)) return stored;
  for (const tag of browser) {
    const base = tag.toLowerCase().split('-')[0] ?? '';
    if (supported.includes(base)) return base;
  }
  return supported[0] ?? 'en';
}

/** Seat names told apart: a name that two seats share (two "Random bot"s) gets its seat's
 * number, counted from 1 (``Random bot (2)`` at seat 1); others stay as they are. */
export function distinctNames(names: readonly string[]): string[] {
  const count = new Map<string, number>();
  for (const n of names) count.set(n, (count.get(n) ?? 0) + 1);
  return names.map((n, i) => ((count.get(n) ?? 0) > 1 ? `${n} (${i + 1})` : n));
}

const decimalFormats = new Map<string, Intl.NumberFormat>();

/** A number with `digits` decimals as the language writes it: "7.7" in English, "7,7" in
 * German (Intl.NumberFormat; no thousands separator, so that a value reads the same in a
 * table and in a sentence). */
export function decimal(value: number, digits: number, lang: string): string {
  const key = `${lang}:${digits}`;
  let f = decimalFormats.get(key);
  if (!f) {
    f = new Intl.NumberFormat(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false });
    decimalFormats.set(key, f);
  }
  return f.format(value);
}
