/**
 * The extractive confidence model: logistic regression over the standardised features of
 * confidence.ts (FEATURE_NAMES, same order), P(the answer holds a gold span). Written by
 * `tsx bench/src/quality/fit-confidence.ts --write` from the tuning articles of
 * squad2-sample.json + parley-qa.json (3386 questions, 2086 answered right; the held-out
 * articles are never read). Do not edit by hand: refit.
 *
 * In-sample: AUROC right vs rest 0.777, answerable vs unanswerable 0.681.
 * operatingPoint: the highest P(right) at which at most 11 % of the tuning answerable
 * questions fall back (the largest share whose leave-one-article-out fallback, mean + standard error, is at most 15 %); confidence.ts maps it onto the default threshold 0.35.
 */
export const CONFIDENCE_MODEL = {
  features: ["bestSentenceCoverage","answerCoverage","topPassageCoverage","answerFromTopPassage","typeMatch","typedSpan","namesNumbersPresent","namesNumbersInSentence","sentenceMissing","sentenceMargin","questionLength","lexicalEvidence","noOppositeSwap"] as readonly string[],
  means: [0.643115,0.719005,0,0.868281,0.938866,0.426757,2.878913,0,0.52746,0.399323,4.999114,0,0.988187] as readonly number[],
  scales: [0.245745,0.221539,1,0.338185,0.239576,0.494606,0.365507,1,0.281018,0.317818,1.67369,1,0.108045] as readonly number[],
  weights: [0.302857,0.617878,0,0.809809,0.229235,0.087672,0.103437,0,0.086723,0.240038,0.401653,0,0.276318] as readonly number[],
  intercept: 0.693241,
  operatingPoint: 0.169594,
};
