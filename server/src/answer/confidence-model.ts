/**
 * The extractive confidence model: logistic regression over the standardised features of
 * confidence.ts (FEATURE_NAMES, same order), P(the answer holds a gold span). Written by
 * `tsx bench/src/quality/fit-confidence.ts --write` from the tuning articles of
 * squad2-sample.json + parley-qa.json (3386 questions, 2099 answered right; the held-out
 * articles are never read). Do not edit by hand: refit.
 *
 * In-sample: AUROC right vs rest 0.775, answerable vs unanswerable 0.680.
 * operatingPoint: the highest P(right) at which at most 11 % of the tuning answerable
 * questions fall back (the largest share whose leave-one-article-out fallback, mean + standard error, is at most 15 %); confidence.ts maps it onto the default threshold 0.35.
 */
export const CONFIDENCE_MODEL = {
  features: ["bestSentenceCoverage","answerCoverage","topPassageCoverage","answerFromTopPassage","typeMatch","typedSpan","namesNumbersPresent","namesNumbersInSentence","sentenceMissing","sentenceMargin","questionLength","lexicalEvidence","noOppositeSwap"] as readonly string[],
  means: [0.653441,0.707671,0,0.87212,0.940638,0.428529,2.880095,0,0.537801,0.39682,4.998523,0,0.988187] as readonly number[],
  scales: [0.246491,0.226976,1,0.333956,0.236301,0.494866,0.363467,1,0.286469,0.315863,1.67369,1,0.108045] as readonly number[],
  weights: [0.414331,0.425187,0,0.81899,0.194514,0.096189,0.113931,0,0.19851,0.24271,0.438843,0,0.276719] as readonly number[],
  intercept: 0.717886,
  operatingPoint: 0.166753,
};
