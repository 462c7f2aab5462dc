/**
 * A local server speaking the OpenAI embeddings protocol as api.openai.com does:
 * `POST /v1/embeddings` `{model, input: string | string[], encoding_format?, dimensions?}` →
 * `{object: "list", data: [{object: "embedding", index, embedding: number[]}], model, usage}`;
 * errors as `{"error": {message, type, param, code}}`; `Authorization: Bearer` checked when a key
 * is given.
 *
 * Vectors are deterministic: a bag of words hashed into `dims` dimensions (64 by default), with
 * a small synonym table mapping words of one meaning to one dimension of their own. So "reimbursed" and
 * "refund" are close as vectors though no stemmer relates them: the vector side can find what
 * BM25 cannot.
 */
import http, { type IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';

const SYNONYMS: Record<string, string> = {
  refund: 'refund',
  refunds: 'refund',
  refunded: 'refund',
  reimburse: 'refund',
  reimbursed: 'refund',
  reimbursement: 'refund',
  repaid: 'refund',
  repayment: 'refund',
  password: 'password',
  passphrase: 'password',
  credentials: 'password',
  parcel: 'parcel',
  package: 'parcel',
  shipment: 'parcel',
  delivery: 'parcel',
  shipping: 'parcel',
};
const STOP = new Set(
  'a an and are as at be by can do does for from get go how i if in is it its me my of on or our the to until we what when where who why will with you your am'.split(
    ' ',
  ),
);

export function tokensOf(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((w) => !STOP.has(w)).map((w) => SYNONYMS[w] ?? w);
}

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** Each meaning of the synonym table has a dimension of its own (no hash collisions there). */
const MEANINGS = [...new Set(Object.values(SYNONYMS))];

/** The fake's vector for a text: bag of (canonical) words, other words hashed, L2-normalised. */
export function fakeVector(text: string, dims: number): number[] {
  const v = new Array<number>(dims).fill(0);
  for (const t of tokensOf(text)) {
    const meaning = MEANINGS.indexOf(t);
    const i = meaning >= 0 ? meaning : MEANINGS.length + (fnv1a(t) % (dims - MEANINGS.length));
    v[i] = (v[i] ?? 0) + 1;
  }
  if (!v.some((x) => x !== 0)) v[0] = 1;
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return v.map((x) => x / norm);
}

export interface EmbeddingRequest {
  headers: IncomingHttpHeaders;
  body: any;
  at: number;
}

/** What the next request gets: vectors, an error (with headers, e.g. Retry-After), or silence. */
export type EmbeddingReply =
  { kind: 'ok' } | { kind: 'error'; status: number; headers?: Record<string, string>; message?: string } | { kind: 'hang' };

export interface FakeEmbedder {
  /** Base URL without the version: pass `${url}/v1` as the embeddings base. */
  url: string;
  requests: EmbeddingRequest[];
  /** Inputs embedded successfully, across requests. */
  embeddedInputs: string[];
  /** Dimensions per model (default 64); unknown models get 404 unless `anyModel`. */
  dims: Record<string, number>;
  /** Replies for the next requests, in order; then `fallback`. */
  enqueue(...replies: EmbeddingReply[]): void;
  fallback: EmbeddingReply | ((req: EmbeddingRequest) => EmbeddingReply);
  /** Delay before answering (ms). */
  delayMs: number;
  close(): Promise<void>;
}

const error = (message: string, type: string, code: string | null = null) =>
  JSON.stringify({ error: { message, type, param: null, code } });

export function startFakeEmbedder(opts: { apiKey?: string | null; dims?: Record<string, number> } = {}): Promise<FakeEmbedder> {
  const queue: EmbeddingReply[] = [];
  const sockets = new Set<Socket>();
  const fake: FakeEmbedder = {
    url: '',
    requests: [],
    embeddedInputs: [],
    dims: { ...(opts.dims ?? { 'fake-embed': 64 }) },
    delayMs: 0,
    enqueue: (...r) => {
      queue.push(...r);
    },
    fallback: { kind: 'ok' },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      raw += c;
    });
    req.on('end', () => {
      void (async () => {
        let body: any;
        try {
          body = JSON.parse(raw);
        } catch {
          body = undefined;
        }
        const record: EmbeddingRequest = { headers: req.headers, body, at: performance.now() };
        const send = (status: number, json: string, headers: Record<string, string> = {}) => {
          res.writeHead(status, { 'content-type': 'application/json', ...headers });
          res.end(json);
        };
        if (req.method !== 'POST' || req.url?.split('?')[0] !== '/v1/embeddings')
          return send(404, error(`Invalid URL (${req.method} ${req.url})`, 'invalid_request_error'));
        fake.requests.push(record);
        if (opts.apiKey && req.headers.authorization !== `Bearer ${opts.apiKey}`)
          return send(401, error('Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key'));
        if (!body || typeof body !== 'object')
          return send(400, error('We could not parse the JSON body of your request.', 'invalid_request_error'));
        const input: unknown = body.input;
        const inputs = typeof input === 'string' ? [input] : input;
        if (!Array.isArray(inputs) || !inputs.length || !inputs.every((s) => typeof s === 'string' && s.length > 0)) {
          return send(
            400,
            error(
              "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.",
              'invalid_request_error',
            ),
          );
        }
        if (inputs.length > 2048) return send(400, error('Too many inputs. The max number of inputs is 2048.', 'invalid_request_error'));
        const modelDims = fake.dims[body.model as string];
        if (typeof body.model !== 'string' || !modelDims)
          return send(
            404,
            error(
              `The model \`${String(body.model)}\` does not exist or you do not have access to it.`,
              'invalid_request_error',
              'model_not_found',
            ),
          );
        if (body.encoding_format !== undefined && body.encoding_format !== 'float')
          return send(400, error('This fake only speaks encoding_format "float".', 'invalid_request_error'));
        const reply = queue.shift() ?? (typeof fake.fallback === 'function' ? fake.fallback(record) : fake.fallback);
        if (fake.delayMs) await new Promise((r) => setTimeout(r, fake.delayMs));
        if (reply.kind === 'hang') return;
        if (reply.kind === 'error')
          return send(
            reply.status,
            error(reply.message ?? `Error ${reply.status}`, reply.status === 429 ? 'requests' : 'server_error'),
            reply.headers,
          );
        const dims = typeof body.dimensions === 'number' ? Math.min(body.dimensions, modelDims) : modelDims;
        fake.embeddedInputs.push(...(inputs as string[]));
        const tokens = (inputs as string[]).reduce((n, s) => n + s.split(/\s+/).filter(Boolean).length, 0);
        send(
          200,
          JSON.stringify({
            object: 'list',
            data: (inputs as string[]).map((s, index) => ({ object: 'embedding', index, embedding: fakeVector(s, dims) })),
            model: body.model,
            usage: { prompt_tokens: tokens, total_tokens: tokens },
          }),
        );
      })();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      fake.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      resolve(fake);
    });
  });
}
