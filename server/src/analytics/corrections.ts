import type { Principal } from '../auth/permissions.js';
import { AppError, notFound } from '../http/errors.js';
import { newId } from '../lib/ids.js';
import { addSnippet, addTemplates, type FixDeps } from './fixes.js';

export interface CorrectionInput {
  sessionId: string;
  messageId: string;
  answer: string;
  asTemplate?: { match: 'exact' | 'contains' } | undefined;
  asSnippet?: { knowledgeBaseId: string } | undefined;
}

/**
 * "Correct this answer": the corrected text becomes a template triggered by the question that
 * preceded the message and/or a Q&A snippet in a knowledge base, and the correction is kept with
 * a link to the conversation turn it corrects.
 */
export async function createCorrection(d: FixDeps, principal: Principal, input: CorrectionInput, at: string) {
  if (!input.asTemplate && !input.asSnippet) throw new AppError('validation_error', 'asTemplate: give asTemplate, asSnippet or both');
  const storage = d.ctx.storage;
  const turn = await storage.get<{ id: string; seq: number; conversationId: string; assistantId: string; sessionId: string }>(
    `SELECT m.id, m.seq, m.conversation_id AS "conversationId", c.assistant_id AS "assistantId", c.session_id AS "sessionId"
    FROM messages m JOIN conversations c ON c.id = m.conversation_id
    WHERE m.id = ? AND m.role = 'assistant' AND c.session_id = ? AND c.organization_id = ?`,
    [input.messageId, input.sessionId, principal.organizationId],
  );
  if (!turn || (principal.assistantId && turn.assistantId !== principal.assistantId)) throw notFound('Assistant message');
  const question = (
    await storage.get<{ content: string }>(
      "SELECT content FROM messages WHERE conversation_id = ? AND role = 'user' AND seq < ? ORDER BY seq DESC LIMIT 1",
      [turn.conversationId, turn.seq],
    )
  )?.content;
  if (!question) throw new AppError('validation_error', 'messageId: this answer has no question before it to correct');
  const assistant = await d.assistants.get(principal.organizationId, turn.assistantId);
  if (!assistant) throw notFound('Assistant');
  // Both permissions are checked before anything is written (fixes.ts checks again at use).
  if (input.asTemplate && !principal.permissions.has('assistants:write'))
    throw new AppError('permission_denied', 'Saving a template needs the assistants:write permission');
  if (input.asSnippet && !principal.permissions.has('knowledge_bases:write'))
    throw new AppError('permission_denied', 'Saving a snippet needs the knowledge_bases:write permission');
  const templateId = input.asTemplate
    ? ((await addTemplates(d, principal, assistant, [question], input.asTemplate.match, input.answer, at))[0] ?? null)
    : null;
  const documentId = input.asSnippet ? await addSnippet(d, principal, input.asSnippet.knowledgeBaseId, question, input.answer, at) : null;
  const id = newId('corr');
  await storage.run(
    `INSERT INTO corrections (id, organization_id, assistant_id, session_id, message_id, question, answer, template_id, knowledge_base_id, document_id, user_id, api_key_id, created_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      id,
      principal.organizationId,
      turn.assistantId,
      turn.sessionId,
      turn.id,
      question,
      input.answer,
      templateId,
      input.asSnippet?.knowledgeBaseId ?? null,
      documentId,
      principal.userId,
      principal.kind === 'api_key' ? principal.credentialId : null,
      at,
    ],
  );
  return {
    id,
    assistantId: turn.assistantId,
    sessionId: turn.sessionId,
    messageId: turn.id,
    question,
    answer: input.answer,
    templateId,
    knowledgeBaseId: input.asSnippet?.knowledgeBaseId ?? null,
    documentId,
    createdAt: at,
  };
}
