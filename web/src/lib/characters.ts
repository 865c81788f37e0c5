// The character workshop (screens/Characters.svelte, issue 16): custom Fist characters (rule
// F9) built from the power primitives the server lists (GET /api/games/fist/characters/examples:
// each primitive's fields with their kinds and limits). Pure helpers, tested in
// characters.test.ts: the id from a name, a step's data from the form's values and back, the
// characters kept in the browser (localStorage), and the balance report's numbers as a verdict.
// No rule is decided here: the server checks each character (POST .../check) and describes it.
import type { components } from '../gen/openapi';
import { ApiError, type ErrorOut } from './api';

type Schemas = components['schemas'];

/** One field of a primitive, as the server describes it: "int" (a number from min to max),
 * "choice" (one of choices), "multi" (some of choices). */
export type FieldSpec = Omit<Schemas['FieldOut'], 'default' | 'kind'> & { kind: string; default?: unknown };

/** A power primitive: its fields, or (either/or) two groups of fields. */
export interface PrimitiveSpec {
  name: string;
  fields?: FieldSpec[] | null;
  groups?: Record<string, FieldSpec[]> | null;
}

export type Limits = Schemas['LimitsOut'];

/** A character as data (the shape of a character file's [[character]] table); a type (not
 * an interface) so that it is the plain JSON object the server's bodies take. */
export type CharacterData = {
  id: string;
  count?: number;
  name: { en: string; de?: string };
  text?: { en?: string; de?: string };
  power: unknown[];
  /** the shipped file a character came from (examples only) */
  example?: string;
};

/** The answer of POST .../check: the character filled in, and its card in each language. */
export type Checked = Schemas['CheckOut'];
export type Examples = Schemas['ExamplesOut'];
export type CardRow = Schemas['BalanceCardOut'];
export type BalanceOut = Schemas['BalanceOut'];

// ---- the id ------------------------------------------------------------------------------

/** An id from a name as a character file wants it (^[a-z][a-z0-9-]{0,30}$): lower case,
 * letters without accents, every other run of characters one '-'. */
export function slug(name: string): string {
  const plain = name
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^[^a-z]+/, '')
    .slice(0, 31)
    .replace(/-+$/, '');
  return plain || 'character';
}

// ---- steps: form values <-> data -----------------------------------------------------------

export type FieldValue = number | string | string[];

/** A step in the editor: the primitive and the value of each field (of each group for
 * either/or); `raw` keeps a step the spec cannot show, unchanged. */
export interface StepDraft {
  primitive: string;
  values: Record<string, FieldValue>;
  groups: Record<string, Record<string, FieldValue>>;
  raw?: unknown;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function defaultOf(f: FieldSpec): FieldValue {
  if (f.kind === 'multi') return Array.isArray(f.default) ? (f.default as unknown[]).map(String) : [];
  if (f.kind === 'choice') return typeof f.default === 'string' ? f.default : (f.choices?.[0] ?? '');
  return typeof f.default === 'number' ? f.default : (f.min ?? 0);
}

function valueOf(f: FieldSpec, v: unknown): FieldValue {
  if (f.kind === 'multi') return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : defaultOf(f);
  if (f.kind === 'choice') return typeof v === 'string' ? v : defaultOf(f);
  return typeof v === 'number' && Number.isFinite(v) ? v : defaultOf(f);
}

const fieldsOf = (spec: PrimitiveSpec): FieldSpec[] => spec.fields ?? [];
const groupsOf = (spec: PrimitiveSpec): [string, FieldSpec[]][] => Object.entries(spec.groups ?? {});

/** A new step of a primitive, every field at its default. */
export function newStep(spec: PrimitiveSpec): StepDraft {
  const values = Object.fromEntries(fieldsOf(spec).map((f) => [f.name, defaultOf(f)]));
  const groups = Object.fromEntries(groupsOf(spec).map(([g, fs]) => [g, Object.fromEntries(fs.map((f) => [f.name, defaultOf(f)]))]));
  return { primitive: spec.name, values, groups };
}

/** A table of fields as data: ints that are 0 where 0 means none are left out (a gain of
 * {common = 2} rather than every coin at 0), unless that leaves nothing. */
function table(fields: FieldSpec[], values: Record<string, FieldValue>): Record<string, FieldValue> {
  const all = Object.fromEntries(fields.map((f) => [f.name, valueOf(f, values[f.name])]));
  const kept = Object.fromEntries(Object.entries(all).filter(([k, v]) => !(v === 0 && fields.find((f) => f.name === k)?.min === 0)));
  return Object.keys(kept).length ? kept : all;
}

/** A step's data as a character file writes it (the mapping of the server's spec, see
 * dragonlair/server/characters.py): no fields -> `{name = true}`; one field -> `{name =
 * value}`; several -> `{name = {field = value, ...}}`; groups (either/or) -> `{either =
 * {<first group> = {...}}, or = {<second group> = {...}}}`. */
export function stepData(spec: PrimitiveSpec, draft: StepDraft): unknown {
  if (draft.raw !== undefined) return draft.raw;
  const groups = groupsOf(spec);
  if (groups.length) {
    const [first, second] = groups;
    const out: Record<string, unknown> = {};
    if (first) out.either = { [first[0]]: table(first[1], draft.groups[first[0]] ?? {}) };
    if (second) out.or = { [second[0]]: table(second[1], draft.groups[second[0]] ?? {}) };
    return out;
  }
  const fields = fieldsOf(spec);
  if (fields.length === 0) return { [spec.name]: true };
  if (fields.length === 1) return { [spec.name]: valueOf(fields[0]!, draft.values[fields[0]!.name]) };
  return { [spec.name]: table(fields, draft.values) };
}

/** The editor's step for a step's data (a loaded or imported character); a step no
 * primitive of the spec describes is kept as it is (`raw`). */
export function draftOf(specs: readonly PrimitiveSpec[], data: unknown): StepDraft {
  const raw = { primitive: '', values: {}, groups: {}, raw: data };
  if (!isObj(data)) return raw;
  const keys = Object.keys(data);
  const grouped = specs.find((s) => groupsOf(s).length && keys.length === 2 && keys.includes('either') && keys.includes('or'));
  if (grouped) {
    const draft = newStep(grouped);
    const sides = [data.either, data.or];
    groupsOf(grouped).forEach(([g, fs], i) => {
      const side = sides[i];
      const inner = isObj(side) ? side[g] : undefined;
      if (!isObj(inner)) return;
      draft.groups[g] = Object.fromEntries(fs.map((f) => [f.name, f.kind === 'int' && !(f.name in inner) && f.min === 0 ? 0 : valueOf(f, inner[f.name])]));
    });
    return draft;
  }
  if (keys.length !== 1) return raw;
  const spec = specs.find((s) => s.name === keys[0] && !groupsOf(s).length);
  if (!spec) return raw;
  const draft = newStep(spec);
  const value = data[spec.name];
  const fields = fieldsOf(spec);
  if (fields.length === 1) draft.values[fields[0]!.name] = valueOf(fields[0]!, value);
  else if (fields.length > 1) {
    if (!isObj(value)) return raw;
    for (const f of fields) draft.values[f.name] = f.kind === 'int' && !(f.name in value) && f.min === 0 ? 0 : valueOf(f, value[f.name]);
  }
  return draft;
}

// ---- the editor's character ----------------------------------------------------------------

export interface Draft {
  id: string;
  /** the id was typed by hand: it no longer follows the English name */
  idEdited: boolean;
  count: number;
  name: { en: string; de: string };
  text: { en: string; de: string };
  steps: StepDraft[];
}

export function emptyDraft(): Draft {
  return { id: '', idEdited: false, count: 1, name: { en: '', de: '' }, text: { en: '', de: '' }, steps: [] };
}

/** The character data of the editor's draft: the German name and the own texts only where
 * written (the server describes a card without a text from its power). */
export function draftData(specs: readonly PrimitiveSpec[], d: Draft): CharacterData {
  const out: CharacterData = { id: d.idEdited ? d.id : slug(d.name.en), count: d.count, name: { en: d.name.en.trim() }, power: [] };
  if (d.name.de.trim()) out.name.de = d.name.de.trim();
  const text: { en?: string; de?: string } = {};
  if (d.text.en.trim()) text.en = d.text.en.trim();
  if (d.text.de.trim()) text.de = d.text.de.trim();
  if (text.en !== undefined || text.de !== undefined) out.text = text;
  out.power = d.steps.map((s) => {
    const spec = specs.find((p) => p.name === s.primitive);
    return spec ? stepData(spec, s) : s.raw;
  });
  return out;
}

/** The editor's draft of a character's data. */
export function toDraft(specs: readonly PrimitiveSpec[], c: CharacterData): Draft {
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  const name = isObj(c.name) ? c.name : { en: '' };
  const text = isObj(c.text) ? c.text : {};
  return {
    id: c.id,
    idEdited: c.id !== slug(str(name.en)),
    count: typeof c.count === 'number' ? c.count : 1,
    name: { en: str(name.en), de: str(name.de) },
    text: { en: str(text.en), de: str(text.de) },
    steps: Array.isArray(c.power) ? c.power.map((s) => draftOf(specs, s)) : [],
  };
}

// ---- my characters (localStorage) ----------------------------------------------------------

export const STORAGE_KEY = 'dragonlair.characters';

/** Shaped like a character (the server checks the rest whenever it is used). */
export function isCharacter(v: unknown): v is CharacterData {
  return isObj(v) && typeof v.id === 'string' && v.id.length <= 64 && isObj(v.name) && typeof v.name.en === 'string'
    && Array.isArray(v.power) && (v.text === undefined || isObj(v.text));
}

/** The characters kept in this browser; storage that is not a list of characters (edited by
 * hand, another version) gives what is usable in it, or nothing. */
export function loadCharacters(store: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage): CharacterData[] {
  try {
    const data: unknown = JSON.parse(store?.getItem(STORAGE_KEY) ?? '[]');
    if (!Array.isArray(data)) return [];
    const seen = new Set<string>();
    return data.filter((c): c is CharacterData => isCharacter(c) && !seen.has(c.id) && !!seen.add(c.id));
  } catch {
    return [];
  }
}

export function saveCharacters(list: readonly CharacterData[], store: Pick<Storage, 'setItem'> | undefined = globalThis.localStorage): void {
  try {
    store?.setItem(STORAGE_KEY, JSON.stringify(list));
  } catch {
    /* full or forbidden: the list lives on in the page */
  }
}

/** The list with `c` in it: in place of the one with the same id (replaced: true), else at the end. */
export function upsert(list: readonly CharacterData[], c: CharacterData): { list: CharacterData[]; replaced: boolean } {
  const i = list.findIndex((x) => x.id === c.id);
  if (i < 0) return { list: [...list, c], replaced: false };
  const out = [...list];
  out[i] = c;
  return { list: out, replaced: true };
}

/** The characters chosen on the workshop for a new table ("play at a table"): handed to the
 * home screen's form through sessionStorage, read once. */
export const TABLE_KEY = 'dragonlair.characters.table';

export function handToTable(list: readonly CharacterData[], store: Pick<Storage, 'setItem'> | undefined = globalThis.sessionStorage): void {
  try {
    store?.setItem(TABLE_KEY, JSON.stringify(list));
  } catch {
    /* nothing handed over */
  }
}

export function takeForTable(store: Pick<Storage, 'getItem' | 'removeItem'> | undefined = globalThis.sessionStorage): CharacterData[] | null {
  try {
    const raw = store?.getItem(TABLE_KEY);
    if (raw === null || raw === undefined) return null;
    store?.removeItem(TABLE_KEY);
    const data: unknown = JSON.parse(raw);
    return Array.isArray(data) ? data.filter(isCharacter) : null;
  } catch {
    return null;
  }
}

// ---- the balance report ---------------------------------------------------------------------

export type Verdict = 'strong' | 'weak' | 'noise' | 'unseen';

/** What the numbers say of a card: its holders' 95% interval wholly above the base rate
 * (strong), wholly below (weak), around it (within noise), or nobody got it. */
export function verdict(card: Pick<CardRow, 'ci95' | 'holders'>, baseRate: number): Verdict {
  if (!card.ci95 || card.holders === 0) return 'unseen';
  const [lo = 0, hi = 1] = card.ci95;
  if (lo > baseRate) return 'strong';
  if (hi < baseRate) return 'weak';
  return 'noise';
}

/** A card's place among the cards someone got, by win rate (1: the best); null if nobody got it. */
export function rank(cards: readonly CardRow[], id: string): { rank: number; of: number } | null {
  const got = cards.filter((c) => c.win_rate !== null);
  const me = got.find((c) => c.id === id);
  if (!me) return null;
  return { rank: got.filter((c) => (c.win_rate ?? 0) > (me.win_rate ?? 0)).length + 1, of: got.length };
}

/** A character read from a file as the server answers it: only its own texts (a text that
 * just describes the power is left out, so that the card keeps describing the power as the
 * power is edited). */
export function fromFile(c: Schemas['ImportedOut']): CharacterData {
  const { text, ...rest } = c;
  const own: { en?: string; de?: string } = {};
  if (typeof text?.en === 'string' && text.en) own.en = text.en;
  if (typeof text?.de === 'string' && text.de) own.de = text.de;
  return own.en !== undefined || own.de !== undefined ? { ...rest, text: own } : rest;
}

// ---- the server ----------------------------------------------------------------------------

const BASE = '/api/games/fist/characters';

async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method, credentials: 'same-origin' };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { 'content-type': 'application/json' };
  }
  const r = await fetch(`${BASE}${path}`, init);
  const text = await r.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!r.ok) {
    const e = isObj(data) && isObj(data.error) ? data.error : data;
    const err = (isObj(e) && typeof e.code === 'string' ? e : { code: 'server.request.failed', params: { status: r.status }, rule: null }) as ErrorOut;
    throw new ApiError(r.status, err);
  }
  return data as T;
}

export const characterApi = {
  examples: () => call<Examples>('GET', '/examples'),
  check: (character: CharacterData) => call<Checked>('POST', '/check', { character } satisfies Schemas['CheckIn']),
  import: async (filename: string, text: string): Promise<{ characters: CharacterData[] }> => {
    const r = await call<Schemas['CharactersOut']>('POST', '/import', { filename, text } satisfies Schemas['ImportIn']);
    return { characters: r.characters.map(fromFile) };
  },
  export: (characters: CharacterData[], format: 'toml' | 'json') =>
    call<Schemas['ExportOut']>('POST', '/export', { characters, format } satisfies Schemas['ExportIn']),
  balance: (characters: CharacterData[], games: number, players: number) =>
    call<BalanceOut>('POST', '/balance', { characters, games, players } satisfies Schemas['BalanceIn']),
};

/** The characters as the server fills them in (texts in every language), for a table. */
export async function checkedAll(list: readonly CharacterData[]): Promise<CharacterData[]> {
  const out: CharacterData[] = [];
  for (const c of list) {
    const { example: _example, ...data } = c;
    out.push((await characterApi.check(data)).character);
  }
  return out;
}
