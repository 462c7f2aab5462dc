import { describe, expect, it } from 'vitest';
import { isStalePlan, StatementNames } from './pg-statements.js';

describe('prepared statement names', () => {
  it('names each text once, and runs texts past the limit unnamed', () => {
    const names = new StatementNames(2, 'p');
    expect(names.nameFor('a')).toBe('p1');
    expect(names.nameFor('b')).toBe('p2');
    expect(names.nameFor('a')).toBe('p1');
    expect(names.nameFor('c')).toBeUndefined();
  });

  it('gives a stale text a new name once, however many connections report it', () => {
    const names = new StatementNames(3, 'p');
    expect(names.nameFor('a')).toBe('p1');
    names.replace('a', 'p1');
    names.replace('a', 'p1'); // a second connection failed with the old name: already replaced
    expect(names.nameFor('a')).toBe('p2');
    names.replace('a', 'p2');
    expect(names.nameFor('a')).toBe('p3');
    // Out of names: unnamed (parsed at every call) rather than the stale name again.
    names.replace('a', 'p3');
    expect(names.nameFor('a')).toBeUndefined();
  });

  it('recognises only the stale-plan refusal among 0A000 errors', () => {
    expect(
      isStalePlan({
        code: '0A000',
        routine: 'RevalidateCachedQuery',
        message: 'le plan en cache ne doit pas modifier le type en résultat',
      }),
    ).toBe(true);
    expect(isStalePlan({ code: '0A000', message: 'cached plan must not change result type' })).toBe(true);
    expect(
      isStalePlan({ code: '0A000', routine: 'transformLockingClause', message: 'FOR UPDATE is not allowed with GROUP BY clause' }),
    ).toBe(false);
    expect(isStalePlan({ code: '23505', routine: 'RevalidateCachedQuery' })).toBe(false);
    expect(isStalePlan(null)).toBe(false);
  });
});
