/**
 * Readable names into the generated API types (generated.ts, from the server's OpenAPI
 * document): the dashboard's models alias these instead of copying response shapes by hand.
 */
import type { operations } from './generated.js';

export type { operations, paths } from './generated.js';

type Operation = keyof operations;
type SuccessResponse<R> = 200 extends keyof R ? R[200] : 201 extends keyof R ? R[201] : 202 extends keyof R ? R[202] : never;
type JsonBody<R> = R extends { content: { 'application/json': infer J } } ? J : never;

/** The JSON an operation answers with on success, as written (envelope included). */
export type ApiResponse<Op extends Operation> = JsonBody<SuccessResponse<operations[Op]['responses']>>;
/** The `data` of an operation's success envelope (for a paginated list: the page's items). */
export type ApiData<Op extends Operation> = ApiResponse<Op> extends { data: infer D } ? D : never;
/** One item of a list operation's `data`. */
export type ApiItem<Op extends Operation> = ApiData<Op> extends ReadonlyArray<infer T> ? T : never;
/** An operation's JSON request body. */
export type ApiBody<Op extends Operation> = operations[Op] extends { requestBody?: { content: { 'application/json': infer B } } }
  ? B
  : never;
