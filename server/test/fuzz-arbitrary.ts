import fc from 'fast-check';

/**
 * fast-check arbitraries for request bodies, from the document's JSON Schemas: values of the
 * right shape that wander just past every limit (lengths, bounds, enums, item counts), then a
 * mutation layer (a field swapped for arbitrary JSON, dropped, or an unknown one added).
 */

type Json = Record<string, any>;

const MAX_DEPTH = 4;

/** Values shaped like `schema`, mostly near its limits; `depth` bounds nested objects and arrays. */
export function arbitraryFor(schema: Json | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > MAX_DEPTH) return fc.jsonValue({ maxDepth: 1 });
  if (schema.const !== undefined) return fc.oneof(fc.constant(schema.const), fc.jsonValue({ maxDepth: 1 }));
  if (Array.isArray(schema.enum))
    return fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...(schema.enum as unknown[])) },
      { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
    );
  const variants = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (variants?.length) return fc.oneof(...variants.map((v) => arbitraryFor(v, depth)));
  switch (Array.isArray(schema.type) ? schema.type[0] : schema.type) {
    case 'string': {
      const min = Number(schema.minLength ?? 0);
      const max = Math.min(Number(schema.maxLength ?? 64), 5000);
      return fc.oneof(
        fc.string({ minLength: min, maxLength: Math.min(max, 64) }),
        fc.constant('x'.repeat(max + 1)),
        fc.constant(''),
        fc.string({ unit: 'grapheme', maxLength: 16 }),
        fc.constantFrom('https://example.com/a', 'ops@example.com', '2024-02-29', 'en', '#ff0000', '*', 'NEAR(', "' OR 1=1 --"),
      );
    }
    case 'integer':
    case 'number': {
      const lo = typeof schema.minimum === 'number' ? schema.minimum : -1000;
      const hi = typeof schema.maximum === 'number' && schema.maximum < Number.MAX_SAFE_INTEGER ? schema.maximum : 1_000_000;
      const inRange =
        schema.type === 'integer' ? fc.integer({ min: Math.ceil(lo), max: Math.floor(hi) }) : fc.double({ min: lo, max: hi, noNaN: true });
      return fc.oneof(
        { weight: 3, arbitrary: inRange },
        { weight: 1, arbitrary: fc.constantFrom(lo - 1, hi + 1, 0.5, -0, Number.MAX_SAFE_INTEGER + 2) },
      );
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const maxItems = Math.min(Number(schema.maxItems ?? 4), 6);
      return fc.array(arbitraryFor(schema.items as Json, depth + 1), { maxLength: maxItems + 1 });
    }
    case 'object': {
      const props = (schema.properties ?? {}) as Record<string, Json>;
      const required = (schema.required ?? []) as string[];
      if (!Object.keys(props).length) return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });
      return fc.record(Object.fromEntries(Object.entries(props).map(([k, s]) => [k, arbitraryFor(s, depth + 1)])), {
        requiredKeys: required.filter((k) => k in props),
      });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** One body as text: a schema-shaped value, mutated; or the example mutated; or junk. */
export function bodyArbitrary(schema: Json, example: Json): fc.Arbitrary<string> {
  const fields = [...new Set([...Object.keys(example), ...Object.keys(schema.properties ?? schema.anyOf?.[0]?.properties ?? {}), 'extra'])];
  const shaped = arbitraryFor(schema);
  const mutate = (base: fc.Arbitrary<unknown>) =>
    fc.tuple(base, fc.constantFrom(...fields), fc.jsonValue({ maxDepth: 4 }), fc.nat(2)).map(([value, key, junk, how]) => {
      if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
      const copy: Json = { ...value };
      if (how === 0) copy[key] = junk;
      else if (how === 1) delete copy[key];
      return copy;
    });
  return fc
    .oneof(
      { weight: 3, arbitrary: shaped },
      { weight: 3, arbitrary: mutate(shaped) },
      { weight: 2, arbitrary: mutate(fc.constant(example)) },
      { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    )
    .map((v) => JSON.stringify(v) ?? 'null')
    .chain((text) =>
      fc.oneof(
        { weight: 9, arbitrary: fc.constant(text) },
        // Text damage: truncated, or stray bytes appended.
        { weight: 1, arbitrary: fc.nat(text.length).map((n) => text.slice(0, n)) },
        { weight: 1, arbitrary: fc.string({ maxLength: 6 }).map((s) => text + s) },
      ),
    );
}
