import { z } from 'zod';
import { assistantConfigSchema, createAssistantSchema } from '../../assistants/schemas.js';
import { AUTH_ERRORS, AUTHENTICATED, defineRoutes, deleted, ID_ERRORS, pageQuery, pathParams } from '../registry.js';

/** The stored record (docs/api-spec.md §6): the configuration plus identity and timestamps. */
export const assistantRecord = z
  .object({
    id: z.string(),
    organizationId: z.string(),
    type: z.enum(['web', 'api', 'discord', 'slack', 'teams']),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .extend(z.object(assistantConfigSchema.shape).partial().shape)
  .loose();
const withWarnings = assistantRecord.extend({ warnings: z.array(z.string()) });

const example = {
  type: 'web',
  name: 'Support',
  description: 'Answers product questions',
  widget: { allowedOrigins: ['https://www.example.com'] },
};

/** /v1/assistants, and its aliases /v1/apps and /v1/integrations (docs/api-spec.md §6): one resource, three names. */
export const assistantRoutes = defineRoutes(
  ['assistants', 'apps', 'integrations'].flatMap((name) => {
    const tag = 'Assistants';
    const base = `/v1/${name}`;
    const alias = name === 'assistants' ? '' : ` (alias of /v1/assistants)`;
    return defineRoutes([
      {
        method: 'post',
        path: base,
        tag,
        summary: `Create an assistant${alias}`,
        auth: AUTHENTICATED,
        permission: 'assistants:write',
        body: createAssistantSchema,
        example,
        success: { kind: 'envelope', status: 201, data: withWarnings },
        errors: [400, ...AUTH_ERRORS, 413],
      },
      {
        method: 'get',
        path: base,
        tag,
        summary: `List assistants${alias}`,
        auth: AUTHENTICATED,
        permission: 'assistants:read',
        query: pageQuery,
        success: { kind: 'paginated', status: 200, item: assistantRecord },
        errors: [400, ...AUTH_ERRORS],
      },
      {
        method: 'get',
        path: `${base}/{id}`,
        tag,
        summary: `Get an assistant${alias}`,
        auth: AUTHENTICATED,
        permission: 'assistants:read',
        params: pathParams('id'),
        success: { kind: 'envelope', status: 200, data: assistantRecord },
        errors: [...AUTH_ERRORS, ...ID_ERRORS],
      },
      {
        method: 'patch',
        path: `${base}/{id}`,
        tag,
        summary: `Update an assistant (JSON Merge Patch: objects merge deeply, arrays replace, null clears a setting to its default)${alias}`,
        auth: AUTHENTICATED,
        permission: 'assistants:write',
        params: pathParams('id'),
        body: assistantConfigSchema.partial(),
        example: { description: 'Updated', confidenceThreshold: 0.4 },
        success: { kind: 'envelope', status: 200, data: withWarnings },
        errors: [400, ...AUTH_ERRORS, ...ID_ERRORS, 413],
      },
      {
        method: 'delete',
        path: `${base}/{id}`,
        tag,
        summary: `Delete an assistant${alias}`,
        auth: AUTHENTICATED,
        permission: 'assistants:write',
        params: pathParams('id'),
        success: { kind: 'envelope', status: 200, data: deleted },
        errors: [...AUTH_ERRORS, ...ID_ERRORS],
      },
    ]);
  }),
);
