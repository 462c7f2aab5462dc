import { z } from 'zod';

/** Response shapes several resources share. Loose objects: the listed fields are the contract, more may be added. */
export const message = z
  .object({
    id: z.string(),
    role: z.enum(['user', 'assistant', 'human_agent']),
    content: z.string(),
    timestamp: z.string().describe('ISO 8601 UTC'),
    metadata: z.record(z.string(), z.unknown()).optional(),
  })
  .loose();

export const chatSource = z.object({ title: z.string(), url: z.string().nullable() }).loose();
