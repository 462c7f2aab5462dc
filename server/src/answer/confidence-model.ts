/**
 * The extractive confidence model: logistic regression over the standardised features of
 * confidence.ts (FEATURE_NAMES, same order), P(the answer holds a gold span). Written by
 * `tsx bench/src/quality/fit-confidence.ts --write` from the tuning articles of
 * squad2-sample.json (2961 questions, 1817 answered right; the held-out
 * articles are never read). Do not edit by hand: refit.
 *
 * In-sample: AUROC right vs rest 0.766, answerable vs unanswerable 0.577.
 * operatingPoint: the highest P(right) at which at most 15 % of the tuning answerable
 * questions fall back; confidence.ts maps it onto the default threshold 0.35.
 */
export const CONFIDENCE_MODEL = {
  features: ["bestSentenceCoverage","answerCoverage","topPassageCoverage","scoreGap","runnerUpMargin","answerFromTopPassage","typeMatch","typedSpan","namesNumbersPresent"] as readonly string[],
  means: [0,0.715009,0,0.313935,0.800864,0.865924,0.939547,0.419791,2.866261] as readonly number[],
  scales: [1,0.209317,1,0.212467,0.207484,0.340734,0.238323,0.493525,0.383306] as readonly number[],
  weights: [0,0.499274,0,0.32411,0.272397,0.371636,0.254295,0.020229,0.082541] as readonly number[],
  intercept: 0.552059,
  operatingPoint: 0.34216,
};
