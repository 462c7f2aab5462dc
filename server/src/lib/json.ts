/** Parses a JSON column written by this program; a corrupt value is a bug, so it throws. */
export function parseJson<T>(value: string | null | undefined, fallback: T): T {
  if (value === null || value === undefined || value === '') return fallback;
  return JSON.parse(value) as T;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * PATCH semantics of docs/api-spec.md §6, as JSON Merge Patch (RFC 7396): objects merge deeply, arrays and
 * scalars replace, and `null` removes a key, so its default applies again (a variable removed,
 * a model temperature cleared). Every nullable setting defaults to null, so for those "remove"
 * and "set to null" are the same.
 */
export function deepMerge<T>(base: T, patch: unknown): T {
  if (!isPlainObject(base) || !isPlainObject(patch)) return (patch === undefined ? base : patch) as T;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null) delete out[key];
    else out[key] = isPlainObject(value) && isPlainObject(out[key]) ? deepMerge(out[key], value) : value;
  }
  return out as T;
}
