/**
 * The extractive confidence model: logistic regression over the standardised features of
 * confidence.ts (FEATURE_NAMES, same order), P(the answer holds a gold span). Written by
 * `tsx bench/src/quality/fit-confidence.ts --write` from the tuning articles of
 * squad2-sample.json + parley-qa.json (3386 questions, 2084 answered right; the held-out
 * articles are never read). Do not edit by hand: refit.
 *
 * In-sample: AUROC right vs rest 0.777, answerable vs unanswerable 0.619.
 * operatingPoint: the highest P(right) at which at most 15 % of the tuning answerable
 * questions fall back; confidence.ts maps it onto the default threshold 0.35.
 */
export const CONFIDENCE_MODEL = {
  features: ["bestSentenceCoverage","answerCoverage","topPassageCoverage","scoreGap","runnerUpMargin","answerFromTopPassage","typeMatch","typedSpan","namesNumbersPresent","namesNumbersInSentence","notOneWordOff","lexicalEvidence"] as readonly string[],
  means: [0.643115,0.710583,0,0.323575,0.808781,0.868281,0.938866,0.426757,0,2.791494,0,0] as readonly number[],
  scales: [0.245745,0.212569,1,0.217433,0.212181,0.338185,0.239576,0.494606,1,0.480818,1,1] as readonly number[],
  weights: [0.055048,0.671239,0,0.391635,0.192133,0.594748,0.235929,0.134007,0,0.096751,0,0] as readonly number[],
  intercept: 0.57169,
  operatingPoint: 0.264815,
};
