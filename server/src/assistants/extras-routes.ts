import { Router } from 'express';
import { z } from 'zod';
import { matchTemplate } from '../answer/templates.js';
import { MAX_IMAGE_BYTES, imageProblem, sniffImageType } from '../assets/images.js';
import { deleteAssetIfUnused, insertAsset } from '../assets/store.js';
import { changedFields, recordAssistantChange } from '../audit/audit.js';
import type { AppContext } from '../context.js';
import { nowIso } from '../context.js';
import { principalOf, requirePermission } from '../auth/middleware.js';
import { AppError } from '../http/errors.js';
import { sendData } from '../http/pagination.js';
import { parseInput, pathParams } from '../http/validate.js';
import { receiveUpload } from '../knowledge/files/upload.js';
import { assistantTexts } from '../i18n/assistant-texts.js';
import { visibleAssistant } from './routes.js';
import { languageTagSchema, templateSchema } from './schemas.js';
import { configOf, type AssistantStore } from './service.js';

export const textsQuerySchema = z.object({ language: languageTagSchema.optional() });

export const templateTestSchema = z.strictObject({
  message: z.string().min(1).max(4000),
  templates: z.array(templateSchema).max(200).optional(),
});

/**
 * Dashboard helpers on one assistant, mounted beside assistantsRouter (same three names):
 * `POST /:id/templates/test` (which template fires for a message, saved or unsaved ones) and
 * `POST /:id/avatar` (an image upload that becomes the avatarUrl), and `GET /:id/texts` (the interface
 * texts in the assistant's language, for the connectors).
 */
export function assistantExtrasRouter(ctx: AppContext, store: AssistantStore): Router {
  const r = Router();

  // The connectors' own replies in the assistant's language (issue 25), with the owner's widget texts on top.
  r.get('/:id/texts', requirePermission('assistants:read'), async (req, res) => {
    const { id } = pathParams(req, 'id');
    const a = await visibleAssistant(store, res, id);
    const { language } = parseInput(textsQuerySchema, req.query, 'query');
    sendData(res, assistantTexts(a, language));
  });

  // It changes nothing, but it runs patterns the caller chooses: the right to edit templates
  // (editor and up), not to read them (issue 24: a viewer's request stalled every tenant).
  r.post('/:id/templates/test', requirePermission('assistants:write'), async (req, res) => {
    const { id } = pathParams(req, 'id');
    const assistant = await visibleAssistant(store, res, id);
    const input = parseInput(templateTestSchema, req.body);
    // The real matcher and its budget (answer/templates.ts), so the test says what chat will do.
    const t = matchTemplate(input.templates ?? assistant.templates, input.message, {
      onBudgetSpent: (skipped) =>
        ctx.logger.warn('template matching budget spent', { assistantId: assistant.id, skipped, route: 'templates/test' }),
    });
    sendData(res, { match: t ? { id: t.id ?? null, trigger: t.trigger, match: t.match, response: t.response } : null });
  });

  r.post('/:id/avatar', requirePermission('assistants:write'), async (req, res) => {
    const { id } = pathParams(req, 'id');
    const current = await visibleAssistant(store, res, id);
    if (!req.is('multipart/form-data'))
      throw new AppError('validation_error', 'Send the image as multipart/form-data in a field named `file`');
    const upload = await receiveUpload(req, { maxBytes: MAX_IMAGE_BYTES });
    const problem = imageProblem(upload.fileName, upload.data);
    if (problem) throw new AppError('validation_error', problem);
    const contentType = sniffImageType(upload.data);
    if (!contentType) throw new AppError('validation_error', 'file: not an accepted image');
    const p = principalOf(res);
    const at = nowIso(ctx);
    const previous = /\/v1\/assets\/(ast_[A-Za-z0-9]+)$/.exec(current.avatarUrl ?? '')?.[1];
    const updated = await ctx.storage.tx(async (tx) => {
      const asset = await insertAsset(tx, current.organizationId, contentType, upload.data, at);
      const next = await store.replace(
        current.organizationId,
        current.id,
        { ...configOf(current), avatarUrl: `${ctx.config.publicUrl}/v1/assets/${asset.id}` },
        at,
        tx,
      );
      await ctx.webhooks.deploymentUpdated(tx, current, next);
      await recordAssistantChange(tx, {
        principal: p,
        assistantId: current.id,
        action: 'updated',
        fields: changedFields(configOf(current), configOf(next)),
        at,
      });
      if (previous) await deleteAssetIfUnused(tx, current.organizationId, previous);
      return next;
    });
    store.forgetOrganization(current.organizationId); // chat and the widget see it at once here
    sendData(res, { avatarUrl: updated.avatarUrl }, 201);
  });

  return r;
}
