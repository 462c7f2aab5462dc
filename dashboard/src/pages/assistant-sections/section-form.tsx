import type { ComponentChildren } from 'preact';
import { ErrorNotice, SavedNotice } from '../../ui/common.js';
import type { AssistantEditorModel, SaveableSection } from '../assistant-editor.model.js';

export interface SectionProps {
  m: AssistantEditorModel;
  readOnly: boolean;
}

/** The server's warnings after a save (unknown placeholders, provider notes). */
export function Warnings({ items }: { items: string[] }) {
  if (!items.length) return null;
  return (
    <div class="notice notice-warn" role="status">
      <div>
        <strong>The server saved this with {items.length === 1 ? 'a warning' : `${items.length} warnings`}:</strong>
        <ul class="warning-list">
          {items.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      </div>
    </div>
  );
}

/**
 * One section's form: saved with PATCH of its own fields. A failure keeps what was typed; the
 * server's message sits at its field, or above the form when it names none.
 */
export function SectionForm({
  m,
  section,
  readOnly,
  title,
  intro,
  children,
}: SectionProps & { section: SaveableSection; title: string; intro?: ComponentChildren; children: ComponentChildren }) {
  const s = m.subs[section];
  const err = s.error.value;
  const hasFields = !!err && Object.keys(err.fields).length > 0;
  return (
    <form
      class="card editor-section"
      noValidate
      aria-labelledby={`section-${section}`}
      onSubmit={(e) => {
        e.preventDefault();
        void m.save(section);
      }}
    >
      <h2 id={`section-${section}`}>{title}</h2>
      {intro && <div class="muted">{intro}</div>}
      {hasFields && (
        <div class="notice notice-error" role="alert">
          Not saved: fix the fields marked below.
        </div>
      )}
      <ErrorNotice error={hasFields ? null : err} onRetry={() => void m.save(section)} />
      <fieldset class="plain" disabled={readOnly}>
        {children}
      </fieldset>
      {!readOnly && (
        <div class="actions">
          <button type="submit" class="button primary" disabled={s.busy.value}>
            {s.busy.value ? 'Saving…' : 'Save'}
          </button>
          <SavedNotice show={s.saved.value} />
        </div>
      )}
      {s.saved.value && <Warnings items={m.warnings.value} />}
    </form>
  );
}
