/**
 * The extractive confidence model: logistic regression over the standardised features of
 * confidence.ts (FEATURE_NAMES, same order), P(the answer holds a gold span). Written by
 * `tsx bench/src/quality/fit-confidence.ts --write` from the tuning articles of
 * squad2-sample.json + parley-qa.json (3386 questions, 2115 answered right; the held-out
 * articles are never read). Do not edit by hand: refit.
 *
 * In-sample: AUROC right vs rest 0.771, answerable vs unanswerable 0.684.
 * operatingPoint: the highest P(right) at which at most 11 % of the tuning answerable
 * questions fall back (the largest share whose leave-one-article-out fallback, mean + standard error, is at most 15 %); confidence.ts maps it onto the default threshold 0.35.
 */
export const CONFIDENCE_MODEL = {
  features: ["bestSentenceCoverage","answerCoverage","topPassageCoverage","answerFromTopPassage","typeMatch","typedSpan","namesNumbersPresent","namesNumbersInSentence","sentenceMissing","sentenceMargin","questionLength","lexicalEvidence","noOppositeSwap"] as readonly string[],
  means: [0.653583,0.709205,0,0.87212,0.941229,0.42912,2.88039,2.794743,0.537934,0.397269,4.998523,0,0.988187] as readonly number[],
  scales: [0.246421,0.22478,1,0.333956,0.235196,0.494951,0.363158,0.475118,0.286344,0.315596,1.67369,1,0.108045] as readonly number[],
  weights: [0.502844,0.340403,0,0.760085,0.203707,0.10338,0.065389,0.054396,0.157306,0.191565,0.42133,0,0.276805] as readonly number[],
  intercept: 0.760754,
  operatingPoint: 0.19467,
};
