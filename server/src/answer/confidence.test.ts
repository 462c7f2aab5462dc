import { describe, expect, it } from 'vitest';
import { calibrateProbability, confidenceFeatures, DEFAULT_CONFIDENCE_THRESHOLD, estimateConfidence, FEATURE_NAMES } from './confidence.js';
import { CONFIDENCE_MODEL } from './confidence-model.js';
import { composeExtractiveAnswer, type Passage } from './extractive.js';

const passage = (id: string, score: number, text: string, title = id): Passage => ({ id, title, url: null, text, headingPath: [], score });

describe('the fitted confidence model', () => {
  it('has one non-negative weight per feature, in FEATURE_NAMES order', () => {
    expect(CONFIDENCE_MODEL.features).toEqual([...FEATURE_NAMES]);
    for (const list of [CONFIDENCE_MODEL.means, CONFIDENCE_MODEL.scales, CONFIDENCE_MODEL.weights])
      expect(list).toHaveLength(FEATURE_NAMES.length);
    expect(CONFIDENCE_MODEL.weights.every((w) => w >= 0)).toBe(true);
    expect(CONFIDENCE_MODEL.operatingPoint).toBeGreaterThan(0);
    expect(CONFIDENCE_MODEL.operatingPoint).toBeLessThan(1);
  });

  it('maps its operating point onto the default threshold, monotonically, 0 → 0 and 1 → 1', () => {
    expect(calibrateProbability(CONFIDENCE_MODEL.operatingPoint)).toBeCloseTo(DEFAULT_CONFIDENCE_THRESHOLD, 9);
    expect(calibrateProbability(0)).toBe(0);
    expect(calibrateProbability(1)).toBeCloseTo(1, 9);
    let last = -1;
    for (let p = 0; p <= 1; p += 0.01) {
      const c = calibrateProbability(p);
      expect(c).toBeGreaterThanOrEqual(last);
      last = c;
    }
  });

  it('trusts an answer whose sentence holds the question and the asked number over one about something else', () => {
    const right = [
      passage('rhine', 1, 'The Rhine is a European river. The Rhine is 1,233 kilometres long and flows into the North Sea.', 'Rhine'),
      passage('danube', 0.4, 'The Danube flows through ten countries.', 'Danube'),
    ];
    const wrong = [passage('weather', 1, 'The weather in Paris is mild in spring. Tourists visit the Louvre.', 'Paris')];
    const ask = (q: string, ps: Passage[]) => estimateConfidence(q, ps, composeExtractiveAnswer(q, ps, { maxLength: 1000 }).coverage);
    const high = ask('How long is the Rhine?', right);
    const low = ask('How long is the Rhine?', wrong);
    expect(high).toBeGreaterThanOrEqual(DEFAULT_CONFIDENCE_THRESHOLD);
    expect(low).toBeLessThan(DEFAULT_CONFIDENCE_THRESHOLD);
    expect(estimateConfidence('How long is the Rhine?', [], null)).toBe(0);
    // Features exist for every name, even when the answerer has not run on these passages.
    expect(confidenceFeatures('How long is the Rhine?', [...right], null)).toHaveLength(FEATURE_NAMES.length);
  });
});
