import type { Request } from 'express';
import { describe, expect, it } from 'vitest';
import { pathParams } from './validate.js';

const withParams = (params: Record<string, unknown>): Request => ({ params }) as unknown as Request;

describe('pathParams', () => {
  it('returns the named parameters as strings', () => {
    expect(pathParams(withParams({ id: 'kb_1', docId: 'doc_2', other: 'x' }), 'id', 'docId')).toEqual({ id: 'kb_1', docId: 'doc_2' });
  });

  it('keeps an id of any format (an id that names nothing is the handler’s 404)', () => {
    expect(pathParams(withParams({ id: 'not-an-id at all' }), 'id')).toEqual({ id: 'not-an-id at all' });
  });

  it('is a 400 naming the parameter when it is missing, empty or a wildcard list', () => {
    for (const params of [{}, { id: '' }, { id: ['a', 'b'] }]) {
      expect(() => pathParams(withParams(params), 'id')).toThrow(
        expect.objectContaining({ status: 400, code: 'validation_error', message: expect.stringMatching(/^id: /) }),
      );
    }
  });
});
