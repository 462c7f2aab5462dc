import { describe, expect, it } from 'vitest';
import { detectLanguage } from './detect.js';
import { isLanguageTag, primaryLanguage } from './languages.js';
import { analyzerFor, contentTerms, questionTerms, searchTermsFor, termCoverage } from './text.js';
import { splitSentences } from './sentences.js';

describe('analyzers per language', () => {
  it('English is unchanged: FTS5 Porter terms, its stopwords and question frames', () => {
    expect(analyzerFor('en-GB').indexTerms("Don't stop the running")).toEqual(['don', 't', 'stop', 'the', 'run']);
    expect(analyzerFor(null).searchTerms('What year did the war end?')).toEqual(['war', 'end']);
  });

  it('stems with Snowball, drops stopwords-iso and question frames', () => {
    const de = analyzerFor('de');
    expect(de.indexTerms('Die Universitäten wurden gegründet')).toEqual(['die', 'universitat', 'wurd', 'gegrundet']);
    expect(de.questionTerms('In welchem Jahr wurde die Universität gegründet?')).toEqual(['universitat', 'gegrundet']);
    expect(questionTerms('¿En qué año se fundó la universidad?', 'es')).toEqual(['fund', 'univers']);
  });

  it('cuts Thai, Chinese and Japanese into words with Intl.Segmenter', () => {
    expect(analyzerFor('th').words('ภาษาไทยเป็นภาษาที่สวยงาม')).toEqual(['ภาษา', 'ไทย', 'เป็น', 'ภาษา', 'ที่', 'สวยงาม']);
    expect(analyzerFor('zh-CN').words('维基百科是一个自由的百科全书')).toContain('百科');
    expect(analyzerFor('ja').words('東京は日本の首都です').length).toBeGreaterThan(3);
  });

  it('folds Turkish dotted and dotless i by Turkish rules, Russian ё, Arabic short vowels', () => {
    expect(analyzerFor('tr').words('İSTANBUL ILIK')).toEqual(['istanbul', 'ılık']);
    expect(analyzerFor('ru').words('Ёлка')).toEqual(['елка']);
    expect(analyzerFor('ar').words('كَتَبَ')).toEqual(['كتب']);
  });

  it('keeps diacritics that tell words apart where there is no stemmer to fold them (Vietnamese tones)', () => {
    expect(analyzerFor('vi').indexTerms('Thủ đô')).toEqual(['thủ', 'đô']);
  });

  it('matches a question to a text in its language: coverage and the union over languages', () => {
    expect(termCoverage('Wann wurden die Universitäten gegründet?', 'Die Universität wurde 1388 gegründet.', 'de')).toBe(1);
    expect(contentTerms('der die das Haus', 'de')).toEqual(['haus']);
    const both = searchTermsFor('Universitäten gegründet', ['de', 'en']);
    expect(both).toEqual(expect.arrayContaining(['universitat', 'gegrundet', 'universitaten']));
  });
});

describe('language tags', () => {
  it('validates BCP 47 and takes the primary subtag', () => {
    expect(['de', 'pt-BR', 'zh-Hans-CN', 'fil'].every(isLanguageTag)).toBe(true);
    expect(['english', 'x', 'en_US', '', 'de-'].some(isLanguageTag)).toBe(false);
    expect(primaryLanguage('pt-BR')).toBe('pt');
  });
});

describe('detectLanguage (eld)', () => {
  it('names the language of a paragraph, and falls back on text too short to tell', async () => {
    expect(await detectLanguage('Die Universität wurde im Jahr 1388 gegründet und ist die älteste der Stadt.')).toBe('de');
    expect(await detectLanguage('มหาวิทยาลัยก่อตั้งขึ้นในปี 1917 เป็นมหาวิทยาลัยแห่งแรกของประเทศไทย')).toBe('th');
    expect(await detectLanguage('OK 42', 'fr')).toBe('fr');
  });
});

describe('sentences in every script', () => {
  it('ends Hindi sentences at the danda, Arabic ones at ؟, and CJK ones at 。！？', () => {
    expect(splitSentences('भारत एक देश है। इसकी राजधानी दिल्ली है। यह बड़ा है')).toEqual(['भारत एक देश है।', 'इसकी राजधानी दिल्ली है।', 'यह बड़ा है']);
    expect(splitSentences('ما هي عاصمة مصر؟ القاهرة هي العاصمة.')).toEqual(['ما هي عاصمة مصر؟', 'القاهرة هي العاصمة.']);
    expect(splitSentences('维基百科是一个自由的百科全书。哪一年成立？好')).toEqual([
      '维基百科是一个自由的百科全书。',
      '哪一年成立？',
      '好',
    ]);
  });

  it('ends Thai sentences at the spaces between Thai letters, joining pieces too short to stand alone', () => {
    // Thai spaces clauses, names and numbers too: pieces under 160 characters join the next.
    const a = `มหาวิทยาลัยก่อตั้งขึ้นในปี 1917 ${'เป็นมหาวิทยาลัยแห่งแรกของประเทศไทยและเป็นที่รู้จักกันดี'.repeat(3)}`;
    const b = 'ปัจจุบันมีนักศึกษามากกว่าสามหมื่นคนจากทั่วประเทศและต่างประเทศ'.repeat(3);
    expect(splitSentences(`${a} ${b}`)).toEqual([a, b]);
    expect(splitSentences('สั้น มาก')).toEqual(['สั้น มาก']);
  });

  it('ends a sentence at a full stop that lost its space before a capitalised word', () => {
    expect(splitSentences('Bir dizi otelde yaşadı.Tesla 1943 yılında öldü.')).toEqual([
      'Bir dizi otelde yaşadı.',
      'Tesla 1943 yılında öldü.',
    ]);
    expect(splitSentences('Version 2.5 and node.js work, see e.g. the docs.')).toHaveLength(1);
  });
});
