/**
 * The extractive confidence model: logistic regression over the standardised features of
 * confidence.ts (FEATURE_NAMES, same order), P(the answer holds a gold span). Written by
 * `tsx bench/src/quality/fit-confidence.ts --write` from the tuning articles of
 * squad2-sample.json (2961 questions, 1815 answered right; the held-out
 * articles are never read). Do not edit by hand: refit.
 *
 * In-sample: AUROC right vs rest 0.767, answerable vs unanswerable 0.585.
 * operatingPoint: the highest P(right) at which at most 15 % of the tuning answerable
 * questions fall back; confidence.ts maps it onto the default threshold 0.35.
 */
export const CONFIDENCE_MODEL = {
  features: ["bestSentenceCoverage","answerCoverage","topPassageCoverage","scoreGap","runnerUpMargin","answerFromTopPassage","typeMatch","typedSpan","namesNumbersPresent","namesNumbersInSentence","notOneWordOff"] as readonly string[],
  means: [0,0.714571,0,0.314071,0.801752,0.866261,0.939547,0.419791,2.866937,2.776765,0.686255] as readonly number[],
  scales: [1,0.209744,1,0.212546,0.207464,0.340371,0.238323,0.493525,0.381775,0.494291,0.464014] as readonly number[],
  weights: [0,0.49951,0,0.334857,0.268455,0.366502,0.252508,0.024714,0.007969,0.10717,0.061912] as readonly number[],
  intercept: 0.551176,
  operatingPoint: 0.342802,
};
