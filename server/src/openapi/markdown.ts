/**
 * docs/api.md from the OpenAPI document: one section per tag, one entry per operation, the
 * request fields as tables. Deterministic (no dates), so a test can compare it with the file.
 */

type Json = Record<string, any>;

export const API_DOC_PATH = 'docs/api.md';

const METHOD_ORDER = ['get', 'post', 'put', 'patch', 'delete', 'options'];

/** A JSON Schema as one short type string: `string (1..100)`, `integer 0..50`, `"a" | "b"`. */
export function describeType(s: Json | undefined): string {
  if (!s || Object.keys(s).length === 0) return 'any';
  if (s.$ref) return String(s.$ref).split('/').pop() as string;
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return (s.enum as unknown[]).map((v) => JSON.stringify(v)).join(' \\| ');
  if (s.anyOf || s.oneOf) {
    const parts = (s.anyOf ?? s.oneOf) as Json[];
    return [...new Set(parts.map(describeType))].join(' or ');
  }
  const type = Array.isArray(s.type) ? s.type.join(' or ') : s.type;
  const bounds = (lo: unknown, hi: unknown, unit = '') => {
    if (lo === undefined && hi === undefined) return '';
    const top = hi === undefined || hi === Number.MAX_SAFE_INTEGER ? '' : String(hi);
    return ` (${lo ?? 0}..${top}${unit})`;
  };
  switch (type) {
    case 'string': {
      const format = s.format ? ` ${s.format}` : '';
      return `string${format}${bounds(s.minLength, s.maxLength, ' chars')}`;
    }
    case 'integer':
    case 'number':
      return `${type}${bounds(s.minimum ?? s.exclusiveMinimum, s.maximum ?? s.exclusiveMaximum)}`;
    case 'array':
      return `array of ${describeType(s.items)}${bounds(s.minItems, s.maxItems, ' items')}`;
    case 'object':
      return s.additionalProperties && typeof s.additionalProperties === 'object' && !s.properties
        ? `object of ${describeType(s.additionalProperties)}`
        : 'object';
    default:
      return String(type ?? 'any');
  }
}

const cell = (v: string): string => v.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The object a field holds, if any: itself, the object variant of a nullable, or an array's items. */
function objectInside(s: Json): { schema: Json; suffix: string } | null {
  const variants = (s.anyOf ?? s.oneOf ?? [s]) as Json[];
  const obj = variants.find((v) => v.type === 'object' && v.properties);
  if (obj) return { schema: obj, suffix: '.' };
  const arr = variants.find((v) => v.type === 'array' && v.items?.type === 'object' && v.items.properties);
  return arr ? { schema: arr.items as Json, suffix: '[].' } : null;
}

const shortDefault = (v: unknown): string => {
  if (v === null || typeof v !== 'object') {
    const text = JSON.stringify(v);
    return text.length > 40 ? `${text.slice(0, 37)}…"` : text;
  }
  return Array.isArray(v) && v.length === 0 ? '[]' : '';
};

/** One row per field, nested objects as `model.provider` and arrays of objects as `templates[].trigger`. */
function fieldRows(schema: Json, prefix: string, depth: number): string[] {
  const props = (schema.properties ?? {}) as Record<string, Json>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(props).flatMap(([name, s]) => {
    const def = s.default !== undefined ? shortDefault(s.default) : '';
    const notes = [def && `default ${def}`, s.description ?? ''].filter(Boolean).join('; ');
    const row = `| \`${prefix}${name}\` | ${describeType(s)} | ${required.has(name) ? 'yes' : ''} | ${cell(notes)} |`;
    const inner = depth < 3 ? objectInside(s) : null;
    return [row, ...(inner ? fieldRows(inner.schema, `${prefix}${name}${inner.suffix}`, depth + 1) : [])];
  });
}

function fieldTable(schema: Json): string[] {
  const rows = fieldRows(schema, '', 0);
  if (!rows.length) return [];
  return ['| field | type | required | notes |', '|---|---|---|---|', ...rows];
}

function successLine(status: string, r: Json): string {
  const content = (r.content ?? {}) as Record<string, Json>;
  const types = Object.keys(content);
  if (!types.length) return `**${status}** ${r.description} (no body)`;
  const shapes = types.map((t) => {
    if (t === 'text/event-stream') return `\`text/event-stream\` (events: ${Object.keys(content[t]!['x-events'] ?? {}).join(', ')})`;
    if (t !== 'application/json') return `\`${t}\``;
    const s = content[t]!.schema as Json;
    if (s.properties?.pagination)
      return `paginated \`{"status":"success","data":[${describeType(s.properties.data.items)}],"pagination":{…}}\``;
    if (s.properties?.status?.const === 'success') return `envelope \`{"status":"success","data":${describeType(s.properties.data)}}\``;
    return `bare JSON ${describeType(s)}`;
  });
  return `**${status}** ${shapes.join('; or ')}`;
}

function renderOperation(path: string, method: string, op: Json): string[] {
  const lines = [`### ${method.toUpperCase()} ${path}`, '', op.summary + '.', ''];
  if (op.description) lines.push(op.description, '');
  const schemes = (op.security as Json[]).flatMap((s) => Object.keys(s));
  const auth = schemes.length
    ? schemes.map((s) => (s === 'bearer' ? 'bearer token' : 'dashboard session cookie')).join(' or ')
    : 'none (public)';
  lines.push(
    `- Auth: ${auth}${op['x-permissions'] ? `; permission: ${(op['x-permissions'] as string[]).map((p) => `\`${p}\``).join(' or ')}` : ''}`,
  );
  const params = (op.parameters ?? []) as Json[];
  for (const where of ['path', 'query']) {
    const list = params.filter((p) => p.in === where);
    if (!list.length) continue;
    lines.push(
      `- ${where === 'path' ? 'Path' : 'Query'}: ${list.map((p) => `\`${p.name}\` ${describeType(p.schema)}${p.required && where === 'query' ? ' (required)' : ''}`).join(', ')}`,
    );
  }
  const body = op.requestBody?.content as Record<string, Json> | undefined;
  const responses = op.responses as Record<string, Json>;
  const statuses = Object.keys(responses);
  const success = statuses.filter((s) => Number(s) < 400);
  const errors = statuses.filter((s) => Number(s) >= 400);
  for (const s of success) lines.push(`- Success: ${successLine(s, responses[s]!)}`);
  if (errors.length)
    lines.push(
      `- Errors: ${errors.join(', ')} in the ${op['x-error-shape'] === 'form1' ? '"form 1" shape `{"error":{"code","message"}}`' : 'error envelope `{"status":"error","error":{"code","message"}}`'}`,
    );
  if (body) {
    for (const [type, c] of Object.entries(body)) {
      if (type !== 'application/json') {
        lines.push(`- Body \`${type}\`: ${c.schema?.description ?? ''}`);
        continue;
      }
      lines.push('', 'Body (`application/json`):', '');
      const s = c.schema as Json;
      const variants = (s.anyOf ?? [s]) as Json[];
      variants.forEach((v, i) => {
        if (variants.length > 1) lines.push(`Variant ${i + 1}:`, '');
        const table = fieldTable(v);
        lines.push(...(table.length ? table : [`${describeType(v)}`]), '');
      });
      if (c.example !== undefined) lines.push('Example:', '', '```json', JSON.stringify(c.example), '```');
    }
  }
  lines.push('');
  return lines;
}

export function renderApiMarkdown(doc: Json): string {
  const out = [
    '# Parley HTTP API',
    '',
    '<!-- Generated by `npm run docs:api` from the route registry (server/src/openapi). Do not edit by hand. -->',
    '',
    'The machine-readable contract is the OpenAPI 3.1 document at `GET /v1/openapi.json`; this page is',
    'generated from it. Every `/v1` route is also served under `/api/v1`.',
    '',
    '- Success bodies: `{"status":"success","data":…}`; lists add `"pagination":{"total","page","limit","pages"}`',
    '  and take `page` (≥ 1, default 1) and `limit` (1..100, default 20).',
    '- Errors: `{"status":"error","error":{"code","message"}}` with codes `validation_error` 400,',
    '  `authentication_error` 401, `permission_denied` 403, `resource_not_found` 404, `conflict` 409,',
    '  `payload_too_large` 413, `rate_limit_exceeded` 429, `server_error` 500, `unavailable` 503 (limits store down, with `Retry-After`) — except `POST /v1/integrations/{id}/chat`,',
    '  which answers the "form 1" `{"error":{"code","message"}}` (`INVALID_REQUEST`, `UNAUTHORIZED`, `FORBIDDEN`,',
    '  `NOT_FOUND`, `PAYLOAD_TOO_LARGE`, `RATE_LIMITED`, `INTERNAL_ERROR`, `UNAVAILABLE`).',
    '- Auth: `Authorization: Bearer <API key or session token>` unless a route says "none".',
    '- JSON bodies: at most 1 MiB, valid UTF-8, nested at most 32 levels, no NUL character (\\u0000) in any string or key; no %00 in the URL path or query either (400 `validation_error` naming the field: PostgreSQL text cannot hold U+0000).',
    '',
  ];
  const tags = (doc.tags as Json[]).map((t) => t.name as string);
  out.push(
    '## Contents',
    '',
    ...tags.map(
      (t) =>
        `- [${t}](#${t
          .toLowerCase()
          .replace(/[^a-z0-9 -]/g, '')
          .replace(/ /g, '-')})`,
    ),
    '',
  );
  for (const tag of tags) {
    out.push(`## ${tag}`, '');
    for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
      for (const method of METHOD_ORDER) {
        const op = item[method] as Json | undefined;
        if (op && (op.tags as string[])[0] === tag) out.push(...renderOperation(path, method, op));
      }
    }
  }
  return (
    out
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trimEnd() + '\n'
  );
}
