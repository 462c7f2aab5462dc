/**
 * Bad requests for every documented route, derived from the OpenAPI document: which parameters
 * a route has, its body's JSON Schema (types, limits, strictness) and its valid example. Pure:
 * no HTTP here, the suite (fuzz.test.ts) sends them. Each case says what a correct server does:
 * `reject` (a 4xx in the route's error shape) or `tolerate` (anything but a 5xx, in a
 * documented shape: e.g. SQL or FTS syntax in a search string is just text).
 */

type Json = Record<string, any>;

export const FUZZ_CLASSES = [
  'wrong-type',
  'over-limit',
  'deep-nesting',
  'fake-compression',
  'bad-percent-encoding',
  'invalid-utf8',
  'nul-byte',
  'prototype-key',
  'fts-sql-syntax',
  'pagination-range',
  'impossible-date',
  'foreign-id',
  'huge-number',
] as const;
export type FuzzClass = (typeof FUZZ_CLASSES)[number];

export interface FuzzCase {
  cls: FuzzClass;
  /** What was broken, for the failure report. */
  name: string;
  method: string;
  /** The documented (template) path, to look the operation up in the document. */
  route: string;
  /** The concrete request path, query included. */
  url: string;
  headers: Record<string, string>;
  body?: Uint8Array;
  expect: 'reject' | 'tolerate';
}

/** Values for path parameters: the fixture's own ids, and ids of another organization. */
export type ParamResolver = (routePath: string, name: string, which: 'own' | 'foreign') => string;

/** Depth the server refuses past (docs/api-spec.md / docs/api.md: "nested at most 32 levels"). */
export const MAX_DEPTH = 32;
export const BODY_LIMIT_BYTES = 1024 * 1024;

const FTS_SQL = ['"', '*', 'NEAR(', "' OR 1=1 --", 'a" OR "b', ')(', '"; DROP TABLE assistants; --', 'x AND NOT y*'];
const BAD_PERCENT = ['%ZZ', '%E0%A4%A', '%', 'a%2'];
const IMPOSSIBLE_DATES = ['2024-02-30', '2023-02-29', '2024-04-31', '2024-13-01', '2024-02-29T25:00:00Z', '2024-00-10'];
const BAD_PAGES: [string, string][] = [
  ['page', '0'],
  ['page', '-1'],
  ['page', 'abc'],
  ['page', '1.5'],
  ['page', '9007199254740993'],
  ['page', '1e3'],
  ['limit', '0'],
  ['limit', '101'],
  ['limit', '-5'],
  ['limit', '1e2'],
  ['limit', ''],
];
const HUGE_NUMBERS = ['1e308', '-1e308', '1e400', '9007199254740993', '123456789012345678901234567890'];

const encoder = new TextEncoder();
const utf8 = (s: string): Uint8Array => encoder.encode(s);
const JSON_HEADERS = { 'content-type': 'application/json' };

/** A string field's placeholder, swapped for raw bytes after JSON.stringify. */
const MARK = '\u0001FUZZMARK\u0001';
const MARK_JSON = JSON.stringify(MARK).slice(1, -1);

function withRawBytes(value: unknown, bytes: number[]): Uint8Array {
  const text = JSON.stringify(value);
  const at = text.indexOf(MARK_JSON);
  const before = utf8(text.slice(0, at));
  const after = utf8(text.slice(at + MARK_JSON.length));
  return Uint8Array.from([...before, ...bytes, ...after]);
}

/** The first top-level string in the example (its path), or none. */
function firstStringKey(example: Json): string | undefined {
  return Object.keys(example).find((k) => typeof example[k] === 'string');
}

function nested(depth: number): unknown {
  let v: unknown = 'leaf';
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

/** Deep nesting as text: building 100 000 levels as objects would overflow our own stringify. */
function nestedText(depth: number): string {
  return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

function wrongValueFor(schema: Json): unknown[] {
  const type = schema.type ?? (schema.anyOf ? schema.anyOf.map((s: Json) => s.type).filter(Boolean)[0] : undefined);
  switch (type) {
    case 'string':
      return [12345, ['a']];
    case 'integer':
      return ['12', 1.5];
    case 'number':
      return ['0.5', true];
    case 'boolean':
      return ['true', 1];
    case 'array':
      return ['a,b', { 0: 'a' }];
    case 'object':
      return ['{}', [1, 2]];
    default:
      return [];
  }
}

/** Schemas of the body's top-level properties (for a union, the first variant's). */
function bodyProperties(bodySchema: Json | undefined): Record<string, Json> {
  if (!bodySchema) return {};
  const s = bodySchema.anyOf ? bodySchema.anyOf[0] : bodySchema;
  return (s?.properties ?? {}) as Record<string, Json>;
}

function isStrict(bodySchema: Json | undefined): boolean {
  if (!bodySchema) return false;
  const variants = (bodySchema.anyOf ?? [bodySchema]) as Json[];
  return variants.every((v) => v.additionalProperties === false);
}

function numericBounds(s: Json): { max?: number; min?: number } {
  const variants = (s.anyOf ?? [s]) as Json[];
  const n = variants.find((v) => v.type === 'number' || v.type === 'integer');
  return n ? { max: n.maximum ?? n.exclusiveMaximum, min: n.minimum ?? n.exclusiveMinimum } : {};
}

function isNumeric(s: Json): boolean {
  return ((s.anyOf ?? [s]) as Json[]).some((v) => v.type === 'number' || v.type === 'integer');
}

function maxLengthOf(s: Json): number | undefined {
  const variants = (s.anyOf ?? [s]) as Json[];
  return variants.find((v) => v.type === 'string' && typeof v.maxLength === 'number')?.maxLength;
}

function maxItemsOf(s: Json): number | undefined {
  const variants = (s.anyOf ?? [s]) as Json[];
  return variants.find((v) => v.type === 'array' && typeof v.maxItems === 'number')?.maxItems;
}

export interface RouteShape {
  method: string;
  path: string;
  op: Json;
}

/** Every operation of the document, flattened. */
export function listOperations(doc: Json): RouteShape[] {
  return Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ method, path, op: op as Json })),
  );
}

/** The JSON body schema and example of an operation, when it takes one. */
export function jsonBodyOf(op: Json): { schema: Json; example: Json | undefined } | undefined {
  const c = op.requestBody?.content?.['application/json'];
  return c ? { schema: c.schema as Json, example: c.example as Json | undefined } : undefined;
}

const paramNames = (path: string): string[] => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);

/** The route with every parameter filled in (`own` ids unless a name is overridden). */
export function fillPath(
  path: string,
  resolve: ParamResolver,
  override: Record<string, string> = {},
  which: 'own' | 'foreign' = 'own',
): string {
  return path.replace(/\{(\w+)\}/g, (_m, name: string) => override[name] ?? encodeURIComponent(resolve(path, name, which)));
}

/** All the fuzz cases of one operation. */
export function generateCases(route: RouteShape, resolve: ParamResolver): FuzzCase[] {
  const { method, path, op } = route;
  const cases: FuzzCase[] = [];
  const body = jsonBodyOf(op);
  const example: Json = body?.example && typeof body.example === 'object' && !Array.isArray(body.example) ? body.example : {};
  const props = bodyProperties(body?.schema);
  const strict = isStrict(body?.schema);
  const url = fillPath(path, resolve);
  const exampleBytes = body ? utf8(JSON.stringify(example)) : undefined;
  const add = (cls: FuzzClass, name: string, c: Partial<FuzzCase> & { expect: FuzzCase['expect'] }) => {
    cases.push({
      cls,
      name,
      method: method.toUpperCase(),
      route: path,
      url,
      headers: body ? { ...JSON_HEADERS } : {},
      body: exampleBytes,
      ...c,
    });
  };
  const sendJson = (value: unknown) => utf8(JSON.stringify(value));
  const params = (op.parameters ?? []) as Json[];
  const query = params.filter((p) => p.in === 'query');

  // Path parameters: malformed %-encoding, NUL, FTS/SQL syntax, other organizations' and unknown ids.
  const isPublic = ((op.security ?? []) as unknown[]).length === 0;
  for (const name of paramNames(path)) {
    for (const bad of BAD_PERCENT)
      add('bad-percent-encoding', `{${name}} = ${bad}`, { url: fillPath(path, resolve, { [name]: bad }), expect: 'reject' });
    // A wildcard matches any text: only its encoding can be wrong.
    const described = params.find((p) => p.in === 'path' && p.name === name)?.description as string | undefined;
    if (described?.startsWith('wildcard')) continue;
    add('nul-byte', `{${name}} with %00`, {
      url: fillPath(path, resolve, { [name]: `${encodeURIComponent(resolve(path, name, 'own'))}%00` }),
      expect: 'reject',
    });
    for (const s of [FTS_SQL[0], FTS_SQL[3]] as string[])
      add('fts-sql-syntax', `{${name}} = ${s}`, { url: fillPath(path, resolve, { [name]: encodeURIComponent(s) }), expect: 'reject' });
    // Public routes (the widget API) serve any organization's assistant by id: "foreign" means nothing there.
    if (!isPublic)
      add('foreign-id', `{${name}} of another organization`, {
        url: fillPath(path, resolve, { [name]: encodeURIComponent(resolve(path, name, 'foreign')) }),
        expect: 'reject',
      });
    add('foreign-id', `{${name}} unknown`, { url: fillPath(path, resolve, { [name]: `zz_${name}_unknown_0000` }), expect: 'reject' });
  }

  // Query parameters.
  const queryUrl = (q: Record<string, string>) => `${url}?${new URLSearchParams(q).toString()}`;
  if (query.some((p) => p.name === 'page')) {
    for (const [k, v] of BAD_PAGES) add('pagination-range', `${k}=${v}`, { url: queryUrl({ [k]: v }), expect: 'reject' });
  }
  for (const p of query) {
    const enumValues = (p.schema?.enum ?? p.schema?.anyOf?.flatMap((s: Json) => s.enum ?? [])) as unknown[] | undefined;
    if (p.name === 'from' || p.name === 'to') {
      for (const d of IMPOSSIBLE_DATES) add('impossible-date', `${p.name}=${d}`, { url: queryUrl({ [p.name]: d }), expect: 'reject' });
    }
    if (enumValues?.length)
      add('wrong-type', `${p.name}=not-an-option`, { url: queryUrl({ [p.name]: 'not-an-option' }), expect: 'reject' });
    if (p.schema?.type === 'string' && typeof p.schema.maxLength === 'number') {
      add('over-limit', `${p.name} of ${p.schema.maxLength + 1} chars`, {
        url: queryUrl({ [p.name]: 'q'.repeat(p.schema.maxLength + 1) }),
        expect: 'reject',
      });
    }
    if (p.schema?.type === 'string' && !enumValues?.length && p.name !== 'from' && p.name !== 'to') {
      for (const s of FTS_SQL) add('fts-sql-syntax', `${p.name}=${s}`, { url: queryUrl({ [p.name]: s }), expect: 'tolerate' });
      add('nul-byte', `${p.name} with NUL`, { url: queryUrl({ [p.name]: 'a\u0000b' }), expect: 'tolerate' });
    }
    if (p.schema?.type === 'integer')
      for (const n of HUGE_NUMBERS) add('huge-number', `${p.name}=${n}`, { url: queryUrl({ [p.name]: n }), expect: 'reject' });
  }

  if (!body) return cases;

  // The whole body: wrong JSON types, too big, too deep, mislabelled compression, bad bytes.
  for (const [label, value] of [
    ['an array', []],
    ['a string', 'hello'],
    ['a number', 42],
  ] as const) {
    add('wrong-type', `body is ${label}`, { body: sendJson(value), expect: 'reject' });
  }
  const padding = 'p'.repeat(BODY_LIMIT_BYTES);
  add('over-limit', 'body over 1 MiB', { body: sendJson({ ...example, pad: padding }), expect: 'reject' });
  add('deep-nesting', `${MAX_DEPTH + 1} levels in a new field`, {
    body: sendJson({ ...example, nested: nested(MAX_DEPTH + 1) }),
    expect: 'reject',
  });
  add('deep-nesting', `whole body ${MAX_DEPTH + 1} levels`, { body: sendJson(nested(MAX_DEPTH + 1)), expect: 'reject' });
  add('deep-nesting', '100 000 levels', { body: utf8(nestedText(100_000)), expect: 'reject' });
  const objectKey = Object.keys(props).find((k) => ((props[k]!.anyOf ?? [props[k]]) as Json[]).some((v) => v.type === 'object'));
  if (objectKey) {
    add('deep-nesting', `${MAX_DEPTH + 1} levels in ${objectKey}`, {
      body: sendJson({ ...example, [objectKey]: nested(MAX_DEPTH + 1) }),
      expect: 'reject',
    });
    const text = JSON.stringify({ ...example, [objectKey]: MARK });
    const deep = text.replace(JSON.stringify(MARK), nestedText(50_000));
    add('deep-nesting', `50 000 levels in ${objectKey}`, { body: utf8(deep), expect: 'reject' });
  }
  for (const encoding of ['gzip', 'deflate']) {
    add('fake-compression', `Content-Encoding: ${encoding}, plain JSON`, {
      headers: { ...JSON_HEADERS, 'content-encoding': encoding },
      expect: 'reject',
    });
  }
  add('fake-compression', 'Content-Encoding: gzip, random bytes', {
    headers: { ...JSON_HEADERS, 'content-encoding': 'gzip' },
    body: Uint8Array.from([0x1f, 0x8b, 8, 0, 1, 2, 3, 4, 5, 6, 7]),
    expect: 'reject',
  });

  const key = firstStringKey(example) ?? 'extra';
  const invalidSequences: [string, number[]][] = [
    ['C3 28', [0xc3, 0x28]],
    ['lone FF', [0xff]],
    ['truncated E0 A4', [0xe0, 0xa4]],
    ['overlong C0 AF', [0xc0, 0xaf]],
    ['surrogate ED A0 80', [0xed, 0xa0, 0x80]],
  ];
  for (const [label, bytes] of invalidSequences) {
    add('invalid-utf8', `${label} in ${key}`, {
      body: withRawBytes({ ...example, [key]: MARK }, [0x61, ...bytes, 0x62]),
      expect: 'reject',
    });
  }
  add('nul-byte', `raw NUL byte inside ${key}`, { body: withRawBytes({ ...example, [key]: MARK }, [0x61, 0x00, 0x62]), expect: 'reject' });
  add('nul-byte', 'raw NUL byte between tokens', { body: Uint8Array.from([...utf8(JSON.stringify(example)), 0x00]), expect: 'reject' });
  if (firstStringKey(example))
    add('nul-byte', `escaped \\u0000 in ${key}`, { body: sendJson({ ...example, [key]: 'a\u0000b' }), expect: 'tolerate' });

  // Prototype keys: a strict schema refuses unknown keys; a loose one drops them. Either way no 500, no pollution.
  const proto = strict ? 'reject' : 'tolerate';
  add('prototype-key', '__proto__ at the top', {
    body: utf8(JSON.stringify(example).replace(/^\{/, '{"__proto__":{"fuzzPolluted":true},')),
    expect: proto,
  });
  add('prototype-key', 'constructor.prototype at the top', {
    body: sendJson({ ...example, constructor: { prototype: { fuzzPolluted: true } } }),
    expect: proto,
  });
  if (objectKey) {
    add('prototype-key', `__proto__ inside ${objectKey}`, {
      body: utf8(JSON.stringify({ ...example, [objectKey]: MARK }).replace(JSON.stringify(MARK), '{"__proto__":{"fuzzPolluted":true}}')),
      expect: 'tolerate',
    });
  }

  // Field by field: wrong types, over limits, huge numbers, FTS/SQL text.
  for (const [name, schema] of Object.entries(props)) {
    for (const wrong of wrongValueFor(schema)) {
      add('wrong-type', `${name} = ${JSON.stringify(wrong)}`, { body: sendJson({ ...example, [name]: wrong }), expect: 'reject' });
    }
    const maxLength = maxLengthOf(schema);
    if (maxLength !== undefined && maxLength < BODY_LIMIT_BYTES / 2)
      add('over-limit', `${name} of ${maxLength + 1} chars`, {
        body: sendJson({ ...example, [name]: 'x'.repeat(maxLength + 1) }),
        expect: 'reject',
      });
    const maxItems = maxItemsOf(schema);
    if (maxItems !== undefined)
      add('over-limit', `${name} with ${maxItems + 1} items`, {
        body: sendJson({ ...example, [name]: Array.from({ length: maxItems + 1 }, (_v, i) => `item${i}`) }),
        expect: 'reject',
      });
    if (isNumeric(schema)) {
      const { max } = numericBounds(schema);
      for (const n of HUGE_NUMBERS) {
        const text = JSON.stringify({ ...example, [name]: MARK }).replace(JSON.stringify(MARK), n);
        // Above a documented maximum: refused. 1e400 parses as Infinity, never a valid number.
        const over =
          n === '1e400' || (max !== undefined && Number(n) > max) || (n.startsWith('-') && numericBounds(schema).min !== undefined);
        add('huge-number', `${name} = ${n}`, { body: utf8(text), expect: over ? 'reject' : 'tolerate' });
      }
    }
  }
  if (firstStringKey(example)) {
    for (const s of FTS_SQL) add('fts-sql-syntax', `${key} = ${s}`, { body: sendJson({ ...example, [key]: s }), expect: 'tolerate' });
  }
  return cases;
}
