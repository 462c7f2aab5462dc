import { describe, expect, it } from 'vitest';
import { answerTypeOf, findTypedSpan } from './answer-type.js';

describe('answerTypeOf', () => {
  it.each([
    ['When did Beyoncé release Dangerously in Love?', 'date'],
    ['In what year did the Rhine flood?', 'date'],
    ['How many copies did the album sell?', 'number'],
    ['What percentage of energy is solar?', 'number'],
    ['Who directed Spectre?', 'person'],
    ['Where did Chopin die?', 'place'],
    ['Which city hosts the headquarters?', 'place'],
    ['How do I rotate an API key?', null],
    ['What is the Rhine delta made of?', null],
  ])('%s → %s', (q, type) => {
    expect(answerTypeOf(q)).toBe(type);
  });
});

describe('findTypedSpan', () => {
  const span = (text: string, type: Parameters<typeof findTypedSpan>[1], q = '') => findTypedSpan(text, type, q)?.text ?? null;

  it('finds dates, ranges of numbers with their unit, names and places', () => {
    expect(span('She was born on September 4, 1981 in Houston.', 'date')).toBe('September 4, 1981');
    expect(span('International delivery takes 7 to 14 business days.', 'number')).toBe('7 to 14 business days');
    expect(span('The album sold 11 million copies.', 'number')).toBe('11 million copies');
    expect(span('The warranty covers defects for twenty-four months.', 'number')).toBe('twenty-four months');
    expect(span('The film was directed by Sam Mendes in London.', 'person')).toBe('Sam Mendes');
    expect(span('Chopin died in Paris in 1849.', 'place')).toBe('Paris');
  });

  it('skips what the question already says, and a bare year when a number is asked for', () => {
    expect(
      span('Chopin left Warsaw in 1830 and settled in Paris in 1831.', 'date', 'Where did Chopin go after he left Warsaw in 1830?'),
    ).toBe('1831');
    expect(span('In October 2014, the group bought the hotel for US$1.95 billion.', 'number')).toBe('$1.95 billion');
    expect(span('The Ming dynasty began in 1368.', 'number')).toBe('1368');
    expect(span('The river is long.', 'number')).toBeNull();
    // A capitalised sentence opener is not a name.
    expect(span('The Song were concerned with the Liao.', 'person')).toBeNull();
  });
});

describe('answer types in other languages', () => {
  it('knows number and date questions by their own question words', () => {
    expect(answerTypeOf('Wie viele Studenten hat die Universität?', 'de')).toBe('number');
    expect(answerTypeOf('In welchem Jahr wurde sie gegründet?', 'de')).toBe('date');
    expect(answerTypeOf('कितने छात्र हैं?', 'hi')).toBe('number');
    expect(answerTypeOf('متى تأسست الجامعة؟', 'ar')).toBe('date');
    expect(answerTypeOf('大学有多少学生？', 'zh-CN')).toBe('number');
    expect(answerTypeOf('Wer hat sie gegründet?', 'de')).toBeNull();
  });

  it('finds digits of any script, not the ones the question holds', () => {
    expect(findTypedSpan('تأسست عام ١٩٠٨ في القاهرة', 'date', 'متى تأسست؟', 'ar')?.text).toBe('١٩٠٨');
    expect(findTypedSpan('इसमें २५,००० छात्र हैं', 'number', 'कितने छात्र?', 'hi')?.text).toBe('२५,०००');
    expect(findTypedSpan('Im Jahr 1388 mit 50.000 Studenten', 'number', 'Wie viele Studenten 1388?', 'de')?.text).toBe('50.000');
  });
});
