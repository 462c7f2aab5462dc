/**
 * Runs a model provider for one question and turns its deltas into the answer: citation
 * renumbering, the length cap, the decline marker, confidence, and what may be shown live.
 *
 * Streaming vs. fallback. Whether an answer ends as the fallback message depends on its
 * confidence, known only at the end. Confidence = retrieval evidence (known before the call)
 * combined with the model's outcome (cited / uncited / declined), so most of the decision is
 * made early:
 * - no passages, or even a cited answer would stay below the threshold → no model call;
 * - an uncited answer would already reach the threshold → text streams live from the first
 *   token, except while it could still be the decline marker ("NO_ANSWER", a few characters);
 * - otherwise text is held until the first citation, which settles it above the threshold;
 *   without one it never leaves the server and the fallback is sent.
 * The one case left — a model that declines in prose after text went out — ends with the
 * fallback message in `done`: the `done` body is authoritative.
 */
import { citedWithin, createCitationMapper } from './citations.js';
import { modelConfidence, retrievalEvidence, type ModelOutcome } from './confidence.js';
import type { Passage } from './extractive.js';
import { NO_ANSWER } from './prompt.js';
import { ProviderError } from '../net/provider-http.js';
import type { AnswerEvent, AnswerProvider, AnswerRequest, AnswerUsage } from './providers/types.js';
import { createStreamCap } from './stream-cap.js';

export type ModelAnswerOutcome = ModelOutcome | 'failed' | 'skipped';

export interface ModelAnswer {
  outcome: ModelAnswerOutcome;
  /** The capped answer with renumbered citations; '' unless the model answered. */
  text: string;
  confidence: number;
  /** Sources: the cited passages in citation-number order; the top three when uncited. */
  used: Passage[];
  usage: AnswerUsage | null;
  /** From the call to the provider's last event. */
  providerMs: number | null;
  /** From the call to the provider's first text. */
  firstTokenMs: number | null;
  finishReason: string | null;
  /** What was already passed to `onLive`; always a prefix of `text` when the model answered. */
  live: string;
  error: ProviderError | null;
}

const UNCITED_SOURCES = 3;
/** A reply that opens like this and cites nothing is a decline in prose. */
const PROSE_DECLINE =
  /^\W*(?:i'?m sorry|sorry|unfortunately|i (?:do not|don't|cannot|can't|could not|couldn't|am unable to|am not able to) (?:know|find|answer|help|provide|see)|(?:the )?(?:provided |given |available )?(?:passages?|knowledge(?: base)?|context|information|documents?|sources?) (?:do(?:es)? not|don't|doesn't|did not|didn't)\b)/i;
/** Markdown and quotes a model may wrap the marker in. */
const MARKER_WRAP = /^[\s*_`"'>#]+/;

/** Whether text so far is the decline marker, an answer, or too short to tell. */
export function markerState(raw: string): 'undecided' | 'declined' | 'answer' {
  const t = raw.replace(MARKER_WRAP, '').toUpperCase();
  if (!t) return 'undecided';
  if (t.startsWith(NO_ANSWER)) return 'declined';
  return NO_ANSWER.startsWith(t) ? 'undecided' : 'answer';
}

export function looksLikeDecline(text: string): boolean {
  return text.toUpperCase().includes(NO_ANSWER) || PROSE_DECLINE.test(text.slice(0, 300));
}

export async function answerWithModel(opts: {
  provider: AnswerProvider;
  request: AnswerRequest;
  threshold: number;
  signal?: AbortSignal | undefined;
  stream: boolean;
  onLive?: ((text: string) => void) | undefined;
}): Promise<ModelAnswer> {
  const { request, threshold } = opts;
  const passages = request.passages;
  const result: ModelAnswer = {
    outcome: 'skipped',
    text: '',
    confidence: 0,
    used: [],
    usage: null,
    providerMs: null,
    firstTokenMs: null,
    finishReason: null,
    live: '',
    error: null,
  };
  if (!passages.length) return result;
  // Evidence costs some stemming (~0.4 ms for six passages). Unless the threshold is above what
  // any cited answer scores, so that it may rule the call out, it is computed while the
  // provider works on its first token rather than before asking: time to first token.
  let evidence: number | null = null;
  if (threshold > modelConfidence(0, 'cited')) {
    evidence = retrievalEvidence(request.question, passages);
    if (modelConfidence(evidence, 'cited') < threshold) return { ...result, confidence: modelConfidence(evidence, 'cited') };
  }

  let streamLive = false;
  const mapper = createCitationMapper(passages.length);
  const cap = createStreamCap(request.maxResponseLength);
  let raw = '';
  let gate: 'undecided' | 'declined' | 'answer' = 'undecided';
  let finishReason: string | null = null;
  let stoppedAtCap = false;

  const showLive = () => {
    if (!opts.onLive) return;
    const released = cap.released;
    if (released.length <= result.live.length) return;
    if (!streamLive && !citedWithin(mapper.markers, released.length).length) return;
    const piece = released.slice(result.live.length);
    result.live = released;
    opts.onLive(piece);
  };
  const feed = (text: string): typeof gate => {
    if (gate === 'undecided') {
      raw += text;
      gate = markerState(raw);
      if (gate !== 'answer') return gate;
      text = raw;
    }
    cap.push(mapper.push(text));
    showLive();
    return gate;
  };

  const t0 = performance.now();
  let events: AsyncIterator<AnswerEvent> | null = null;
  try {
    events = opts.provider.answer(request, { signal: opts.signal, stream: opts.stream })[Symbol.asyncIterator]();
    const first = events.next(); // sends the request
    first.catch(() => {}); // awaited below; no unhandled rejection meanwhile
    if (evidence === null) {
      await new Promise((resolve) => setImmediate(resolve)); // after the request is on the wire
      evidence = retrievalEvidence(request.question, passages);
    }
    streamLive = modelConfidence(evidence, 'uncited') >= threshold;
    for (let step = await first; !step.done; step = await events.next()) {
      const event = step.value;
      if (event.type === 'delta') {
        if (!event.text) continue;
        result.firstTokenMs ??= round(performance.now() - t0);
        if (feed(event.text) === 'declined') break; // the rest is of no use
        if (cap.saturated) {
          stoppedAtCap = true;
          break;
        }
      } else {
        finishReason = event.finishReason;
        result.usage = event.usage;
      }
    }
    await events.return?.(); // stopped early: cancels the provider request
  } catch (err) {
    const e =
      err instanceof ProviderError ? err : new ProviderError('protocol', err instanceof Error ? err.message : String(err), { cause: err });
    if (e.code === 'aborted' || opts.signal?.aborted) throw e;
    return { ...result, outcome: 'failed', confidence: 0, providerMs: round(performance.now() - t0), error: e };
  }
  evidence ??= retrievalEvidence(request.question, passages);
  result.providerMs = round(performance.now() - t0);
  result.finishReason = stoppedAtCap ? 'length' : finishReason;

  if (gate === 'undecided' && raw.trim()) {
    // The whole reply is a prefix of the marker: "No" is an answer, "NO_ANSW" a cut-off marker.
    gate = raw.includes('_') ? 'declined' : 'answer';
    if (gate === 'answer') cap.push(mapper.push(raw));
  }
  if (gate === 'answer') cap.push(mapper.end());
  const { text } = cap.finish(!stoppedAtCap && finishReason === 'length');
  const body = text !== cap.full && text.endsWith('\u2026') ? text.slice(0, -1) : text;
  const cited = citedWithin(mapper.markers, body.length).map((n) => passages[(mapper.order[n - 1] as number) - 1] as Passage);
  const declined =
    gate !== 'answer' ||
    !text.trim() ||
    finishReason === 'no_answer' ||
    (looksLikeDecline(text) && (!cited.length || text.toUpperCase().includes(NO_ANSWER)));
  const outcome: ModelOutcome = declined ? 'declined' : cited.length ? 'cited' : 'uncited';
  return {
    ...result,
    outcome,
    text: declined ? '' : text,
    confidence: modelConfidence(evidence, outcome),
    used: outcome === 'cited' ? cited : outcome === 'uncited' ? passages.slice(0, UNCITED_SOURCES) : [],
  };
}

const round = (n: number): number => Math.round(n * 10) / 10;
