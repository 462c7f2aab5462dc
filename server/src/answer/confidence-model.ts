/**
 * The extractive confidence model: logistic regression over the standardised features of
 * confidence.ts (FEATURE_NAMES, same order), P(the answer holds a gold span). Written by
 * `tsx bench/src/quality/fit-confidence.ts --write` from the tuning articles of
 * squad2-sample.json + parley-qa.json + the help-center products audacity, cryptomator, letsencrypt, plausible (3483 questions, 2155 answered right; the held-out
 * articles are never read). Do not edit by hand: refit.
 *
 * In-sample: AUROC right vs rest 0.780, answerable vs unanswerable 0.641.
 * operatingPoint: the lowest P(right) at which at most 10 % of the answerable questions of help-center
 * products left out of the fit get a wrong answer (audacity, cryptomator, letsencrypt, plausible, one at a time: wrong
 * 10.0 %, right 26.3 %, unanswerable questions falling back 82.4 %, AUROC 0.727);
 * confidence.ts maps it onto the default threshold 0.35.
 */
export const CONFIDENCE_MODEL = {
  features: ["bestSentenceCoverage","answerCoverage","topPassageCoverage","answerFromTopPassage","typeMatch","typedSpan","namesNumbersPresent","namesNumbersInSentence","sentenceMissing","sentenceMargin","questionLength","lexicalEvidence","noOppositeSwap","documentMargin"] as readonly string[],
  means: [0.643751,0.702974,0,0.866207,0.942291,0.419179,2.877979,2.79443,0,0.392675,4.86793,0,0.988229,0.32688] as readonly number[],
  scales: [0.250723,0.226969,1,0.340429,0.233192,0.493425,0.368569,0.477099,1,0.315505,1.707531,1,0.107856,0.219545] as readonly number[],
  weights: [0.510202,0.280576,0,0.362338,0.123849,0.141527,0.124616,0.306667,0,0.144089,0.383845,0,0.038713,0.511376] as readonly number[],
  intercept: 0.706097,
  operatingPoint: 0.45449,
};
