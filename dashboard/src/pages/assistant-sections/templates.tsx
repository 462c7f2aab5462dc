import { ErrorNotice } from '../../ui/common.js';
import { SelectField, TextArea, TextField } from '../../ui/field.js';
import type { MatchKind } from '../assistants.types.js';
import { SectionForm, type SectionProps } from './section-form.js';

const MATCHES: ReadonlyArray<{ value: MatchKind; label: string }> = [
  { value: 'contains', label: 'Message contains the trigger' },
  { value: 'exact', label: 'Message is exactly the trigger' },
  { value: 'regex', label: 'Regular expression (RE2)' },
];

export function TemplatesSection({ m, readOnly }: SectionProps) {
  const items = m.forms.value!.templates.items;
  const s = m.subs.templates;
  const setItems = (next: typeof items) => m.edit('templates', { items: next });
  const setItem = (i: number, change: Partial<(typeof items)[number]>) =>
    setItems(items.map((t, j) => (j === i ? { ...t, ...change } : t)));
  const result = m.testResult.value;
  const firedIndex = result?.match
    ? items.findIndex(
        (t) => (result.match!.id && t.id === result.match!.id) || (t.trigger === result.match!.trigger && t.match === result.match!.match),
      )
    : -1;
  return (
    <>
      <SectionForm
        m={m}
        section="templates"
        readOnly={readOnly}
        title="Response templates"
        intro="A message that matches a template gets its response at once: no retrieval, no model, confidence 1. The first matching template wins."
      >
        {s.fieldError('templates') && !items.some((_, i) => s.fieldError(`templates.${i}`)) && (
          <p class="field-error" role="alert">
            {s.fieldError('templates')}
          </p>
        )}
        {items.length === 0 && (
          <p class="notice" role="status">
            No templates yet.
          </p>
        )}
        <ol class="template-list">
          {items.map((t, i) => (
            <li key={t.id ?? `new-${i}`}>
              <fieldset>
                <legend>
                  Template {i + 1}
                  {firedIndex === i ? ' · fires for the test message' : ''}
                </legend>
                <div class="row">
                  <TextField
                    label={`Trigger of template ${i + 1}`}
                    value={t.trigger}
                    onValue={(v) => setItem(i, { trigger: v })}
                    error={s.fieldError(`templates.${i}.trigger`)}
                  />
                  <SelectField
                    label={`Match of template ${i + 1}`}
                    value={t.match}
                    options={MATCHES}
                    onValue={(v) => setItem(i, { match: v })}
                    error={s.fieldError(`templates.${i}.match`)}
                  />
                </div>
                <TextArea
                  label={`Response of template ${i + 1}`}
                  rows={3}
                  value={t.response}
                  onValue={(v) => setItem(i, { response: v })}
                  error={s.fieldError(`templates.${i}.response`)}
                />
                <button type="button" class="button small danger" onClick={() => setItems(items.filter((_, j) => j !== i))}>
                  Delete template {i + 1}
                </button>
              </fieldset>
            </li>
          ))}
        </ol>
        <p>
          <button type="button" class="button small" onClick={() => setItems([...items, { trigger: '', match: 'contains', response: '' }])}>
            Add a template
          </button>
        </p>
      </SectionForm>

      {/* Testing runs patterns of the caller's choosing: the server asks for assistants:write (issue 24). */}
      {!readOnly && (
        <form
          class="card"
          aria-labelledby="template-test-title"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void m.testTemplates();
          }}
        >
          <h2 id="template-test-title">Test a message</h2>
          <p class="muted">Checks the templates above as they are now, saved or not.</p>
          <div class="row">
            <TextField
              label="Test message"
              value={m.testMessage.value}
              onValue={(v) => {
                m.testMessage.value = v;
              }}
              error={m.testing.fieldError('message')}
            />
            <button type="submit" class="button" disabled={m.testing.busy.value || !m.testMessage.value.trim()}>
              Test
            </button>
          </div>
          <ErrorNotice
            error={m.testing.error.value && !Object.keys(m.testing.error.value.fields).length ? m.testing.error.value : null}
            onRetry={() => void m.testTemplates()}
          />
          {m.testing.error.value && Object.keys(m.testing.error.value.fields).length > 0 && (
            <p class="field-error" role="alert">
              {m.testing.error.value.message}
            </p>
          )}
          <div role="status" aria-live="polite">
            {result &&
              (result.match ? (
                <div class="notice notice-ok test-result">
                  <div>
                    <strong>
                      Fires: template {firedIndex >= 0 ? firedIndex + 1 : ''} ({result.match.match} “{result.match.trigger}”)
                    </strong>
                    <p class="pre-wrap">{result.match.response}</p>
                  </div>
                </div>
              ) : (
                <p class="notice">No template fires: the assistant would answer from its knowledge.</p>
              ))}
          </div>
        </form>
      )}
    </>
  );
}
