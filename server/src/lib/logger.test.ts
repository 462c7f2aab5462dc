import { describe, expect, it } from 'vitest';
import { createLogger, createMemoryLogger, describeError } from './logger.js';

describe('logger', () => {
  it('writes one JSON line per entry at or above its level, with the fields', () => {
    const lines: string[] = [];
    const log = createLogger('warn', (l) => lines.push(l));
    log.info('dropped');
    log.warn('kept', { n: 1 });
    log.error('also kept');
    expect(lines.map((l) => JSON.parse(l) as Record<string, unknown>)).toEqual([
      { time: expect.any(String), level: 'warn', msg: 'kept', n: 1 },
      { time: expect.any(String), level: 'error', msg: 'also kept' },
    ]);
    const silent: string[] = [];
    createLogger('silent', (l) => silent.push(l)).error('nothing');
    expect(silent).toEqual([]);
  });

  it('remembers entries for tests, and describes errors without their stack', () => {
    const log = createMemoryLogger();
    log.warn('failed', describeError(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' })));
    expect(log.entries).toEqual([{ level: 'warn', msg: 'failed', fields: { error: 'refused', name: 'Error', code: 'ECONNREFUSED' } }]);
    expect(describeError('plain')).toEqual({ error: 'plain' });
  });
});
