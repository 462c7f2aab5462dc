/**
 * The extractive confidence model: logistic regression over the standardised features of
 * confidence.ts (FEATURE_NAMES, same order), P(the answer holds a gold span). Written by
 * `tsx bench/src/quality/fit-confidence.ts --write` from the tuning articles of
 * squad2-sample.json + parley-qa.json + the help-center products audacity, cryptomator, letsencrypt, plausible (3483 questions, 2158 answered right; the held-out
 * articles are never read). Do not edit by hand: refit.
 *
 * In-sample: AUROC right vs rest 0.779, answerable vs unanswerable 0.640.
 * operatingPoint: the lowest P(right) at which at most 10 % of the answerable questions of help-center
 * products left out of the fit get a wrong answer (audacity, cryptomator, letsencrypt, plausible, one at a time: wrong
 * 8.8 %, right 28.7 %, unanswerable questions falling back 82.4 %, AUROC 0.722);
 * confidence.ts maps it onto the default threshold 0.35.
 */
export const CONFIDENCE_MODEL = {
  features: ["bestSentenceCoverage","answerCoverage","topPassageCoverage","answerFromTopPassage","typeMatch","typedSpan","namesNumbersPresent","namesNumbersInSentence","sentenceMissing","sentenceMargin","questionLength","lexicalEvidence","noOppositeSwap","documentMargin"] as readonly string[],
  means: [0.643984,0.703053,0,0.866207,0.942291,0.419179,2.877979,2.79443,0.552785,0.392651,4.86793,0,0.988229,0.32688] as readonly number[],
  scales: [0.250506,0.227184,1,0.340429,0.233192,0.493425,0.368569,0.477099,0.292001,0.315533,1.707531,1,0.107856,0.219545] as readonly number[],
  weights: [0.580048,0.191356,0,0.308043,0.144185,0.108093,0.105429,0.326618,0.044632,0.107028,0.365095,0,0.043811,0.581238] as readonly number[],
  intercept: 0.730558,
  operatingPoint: 0.451602,
};
