import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { api } from '../lib/api.js';
import { useModel } from '../lib/model.js';
import { to } from '../lib/paths.js';
import { can } from '../lib/session.js';
import { ErrorNotice, Loading, PageHeader } from '../ui/common.js';
import { ConfirmDialog } from '../ui/dialog.js';
import { createAssistantEditorModel, SECTION_LABELS, SECTIONS, type Section } from './assistant-editor.model.js';
import { TYPE_LABELS } from './assistants.types.js';
import { ApiAccessSection } from './assistant-sections/api-access.js';
import { BehaviourSection } from './assistant-sections/behaviour.js';
import { ChannelsSection } from './assistant-sections/channels.js';
import { FallbackSection } from './assistant-sections/fallback.js';
import { GeneralSection } from './assistant-sections/general.js';
import { KnowledgeSection } from './assistant-sections/knowledge.js';
import { ModelSection } from './assistant-sections/model.js';
import { PromptSection } from './assistant-sections/prompt.js';
import { TemplatesSection } from './assistant-sections/templates.js';
import { WidgetSection } from './assistant-sections/widget.js';

// The assistant editor: one tab per group of settings, each tab a link (/assistants/:id/:section)
// so every section has its own URL. Unsaved edits of a section survive switching tabs.

export default function AssistantEditorPage() {
  const { params } = useRoute();
  const { route } = useLocation();
  const id = params.id!;
  const section: Section = (SECTIONS as readonly string[]).includes(params.section ?? '') ? (params.section as Section) : 'general';
  const m = useModel(() => createAssistantEditorModel(api, id), [id]);
  const confirming = useSignal(false);
  useEffect(() => {
    void m.load();
  }, [m]);
  const a = m.assistant.data.value;
  const readOnly = !can('assistants:write');

  if (m.assistant.error.value && !a) {
    return (
      <>
        <PageHeader title="Assistant" />
        <ErrorNotice error={m.assistant.error.value} onRetry={() => void m.load()} />
        <p>
          <a href={to('/assistants')}>Back to assistants</a>
        </p>
      </>
    );
  }
  if (!a || !m.forms.value) return <Loading />;

  const props = { m, readOnly };
  return (
    <div class="editor-page">
      <p class="breadcrumb">
        <a href={to('/assistants')}>Assistants</a> / {a.name}
      </p>
      <PageHeader
        title={a.name}
        description={
          <>
            {TYPE_LABELS[a.type]} · <code>{a.id}</code>
          </>
        }
        actions={
          <>
            <a class="button" href={to(`/playground/${a.id}`)}>
              Try in the playground
            </a>
            {!readOnly && (
              <button
                type="button"
                class="button danger"
                onClick={() => {
                  confirming.value = true;
                }}
              >
                Delete assistant
              </button>
            )}
          </>
        }
      />
      {readOnly && (
        <p class="notice" role="status">
          You can view this assistant; changing it needs the editor role.
        </p>
      )}
      <nav class="tabs" aria-label="Assistant settings">
        {SECTIONS.map((s) => (
          <a key={s} href={to(`/assistants/${id}/${s}`)} aria-current={s === section ? 'page' : undefined}>
            {SECTION_LABELS[s]}
            {m.dirty(s) && (
              <span class="unsaved-dot" title="Unsaved changes">
                {' '}
                •<span class="visually-hidden"> (unsaved changes)</span>
              </span>
            )}
          </a>
        ))}
      </nav>
      {section === 'general' && <GeneralSection {...props} />}
      {section === 'model' && <ModelSection {...props} />}
      {section === 'knowledge' && <KnowledgeSection {...props} />}
      {section === 'prompt' && <PromptSection {...props} />}
      {section === 'behaviour' && <BehaviourSection {...props} />}
      {section === 'templates' && <TemplatesSection {...props} />}
      {section === 'fallback' && <FallbackSection {...props} />}
      {section === 'widget' && <WidgetSection {...props} />}
      {section === 'channels' && <ChannelsSection {...props} />}
      {section === 'api' && <ApiAccessSection m={m} />}
      <ConfirmDialog
        open={confirming.value}
        title={`Delete ${a.name}?`}
        confirmLabel="Delete assistant"
        busy={m.deletion.busy.value}
        error={m.deletion.error.value?.message ?? null}
        message={<p>Its settings, templates and widget stop working at once. Conversations stay in analytics. This cannot be undone.</p>}
        onCancel={() => {
          confirming.value = false;
        }}
        onConfirm={async () => {
          if (await m.remove()) {
            confirming.value = false;
            route(to('/assistants'));
          }
        }}
      />
    </div>
  );
}
