import { recordAssistantChange } from '../audit/audit.js';
import type { Principal } from '../auth/permissions.js';
import type { Assistant, AssistantStore } from '../assistants/service.js';
import { assistantConfigSchema } from '../assistants/schemas.js';
import { configOf } from '../assistants/service.js';
import type { AppContext } from '../context.js';
import { AppError, notFound } from '../http/errors.js';
import { newId } from '../lib/ids.js';
import type { KnowledgeStore } from '../knowledge/store.js';

/**
 * The two ways a written answer becomes knowledge, shared by corrections and gap resolution:
 * response templates on the assistant (audited, announced like any assistant change) or a
 * question-and-answer snippet document in a knowledge base.
 */
export interface FixDeps {
  ctx: AppContext;
  assistants: AssistantStore;
  knowledge: KnowledgeStore;
}

/** Adds one template per trigger; returns their ids. Runs in its own transaction. */
export async function addTemplates(
  d: FixDeps,
  principal: Principal,
  assistant: Assistant,
  triggers: string[],
  match: 'exact' | 'contains',
  response: string,
  at: string,
): Promise<string[]> {
  if (!principal.permissions.has('assistants:write'))
    throw new AppError('permission_denied', 'Saving a template needs the assistants:write permission');
  const added = triggers.map((trigger) => ({ id: newId('tpl'), trigger: trigger.trim().slice(0, 500), match, response }));
  const config = configOf(assistant);
  const parsed = assistantConfigSchema.safeParse({ ...config, templates: [...config.templates, ...added] });
  if (!parsed.success)
    throw new AppError(
      'validation_error',
      `templates: ${parsed.error.issues[0]?.message ?? 'invalid'} (an assistant holds at most 200 templates)`,
    );
  await d.ctx.storage.tx(async (tx) => {
    const next = await d.assistants.replace(assistant.organizationId, assistant.id, parsed.data, at, tx);
    await d.ctx.webhooks.deploymentUpdated(tx, assistant, next);
    await recordAssistantChange(tx, { principal, assistantId: assistant.id, action: 'updated', fields: ['templates'], at });
  });
  d.assistants.forgetOrganization(assistant.organizationId); // chat answers with the new templates at once here
  return added.map((t) => t.id);
}

/** A snippet document "question → answer" in a knowledge base of the caller's organization; returns its id. */
export async function addSnippet(
  d: FixDeps,
  principal: Principal,
  knowledgeBaseId: string,
  question: string,
  answer: string,
  at: string,
): Promise<string> {
  if (!principal.permissions.has('knowledge_bases:write'))
    throw new AppError('permission_denied', 'Saving a snippet needs the knowledge_bases:write permission');
  const kb = await d.ctx.storage.get('SELECT id FROM knowledge_bases WHERE id = ? AND organization_id = ?', [
    knowledgeBaseId,
    principal.organizationId,
  ]);
  if (!kb) throw notFound('Knowledge base');
  const title = question.trim().replace(/\s+/g, ' ').slice(0, 200);
  // The question as the heading (retrieval indexes headings), the answer as the only body text.
  const content = `# ${title}\n\n${answer.trim()}\n`;
  return (await d.knowledge.addDocument(knowledgeBaseId, { title, content, format: 'markdown', url: null }, at)).id;
}
