import { useRef } from 'preact/hooks';
import { insertAt, placeholderChips } from '../assistant-editor.model.js';
import { SectionForm, type SectionProps } from './section-form.js';

export function PromptSection({ m, readOnly }: SectionProps) {
  const f = m.forms.value!.prompt;
  const s = m.subs.prompt;
  const area = useRef<HTMLTextAreaElement>(null);
  const set = (change: Partial<typeof f>) => m.edit('prompt', change);
  const promptError = s.fieldError('systemPrompt');

  // A chip puts {{name}} where the cursor is, and the cursor after it.
  const insert = (name: string) => {
    const el = area.current;
    const start = el?.selectionStart ?? f.systemPrompt.length;
    const end = el?.selectionEnd ?? start;
    const next = insertAt(f.systemPrompt, start, end, `{{${name}}}`);
    set({ systemPrompt: next.value });
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(next.cursor, next.cursor);
    });
  };
  const setVar = (i: number, change: Partial<{ key: string; value: string }>) =>
    set({ variables: f.variables.map((v, j) => (j === i ? { ...v, ...change } : v)) });

  return (
    <SectionForm
      m={m}
      section="prompt"
      readOnly={readOnly}
      title="Prompt"
      intro={
        <>
          What a language model is told before each question. <code>{'{{knowledge}}'}</code> becomes the retrieved passages; your variables
          fill their own placeholders.
        </>
      }
    >
      <div class="field">
        <label for="system-prompt">System prompt</label>
        <div class="chips" role="group" aria-label="Insert a placeholder at the cursor">
          {placeholderChips(f.variables).map((name) => (
            <button key={name} type="button" class="chip" onClick={() => insert(name)}>{`{{${name}}}`}</button>
          ))}
        </div>
        <textarea
          id="system-prompt"
          ref={area}
          rows={12}
          value={f.systemPrompt}
          aria-invalid={!!promptError || undefined}
          aria-describedby={promptError ? 'system-prompt-error' : undefined}
          onInput={(e) => set({ systemPrompt: e.currentTarget.value })}
        />
        {promptError && (
          <p class="field-error" id="system-prompt-error" role="alert">
            {promptError}
          </p>
        )}
      </div>
      <h3>Variables</h3>
      <p class="hint">
        Each variable fills <code>{'{{name}}'}</code> in the prompt, templates and fallback messages.
      </p>
      {s.fieldError('variables') && (
        <p class="field-error" role="alert">
          {s.fieldError('variables')}
        </p>
      )}
      {f.variables.length > 0 && (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Variables</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Value</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {f.variables.map((v, i) => {
                const err = v.key ? s.fieldError(`variables.${v.key.trim()}`) : undefined;
                return (
                  <tr key={i}>
                    <td>
                      <input
                        aria-label={`Variable ${i + 1} name`}
                        value={v.key}
                        placeholder="company_name"
                        aria-invalid={!!err || undefined}
                        onInput={(e) => setVar(i, { key: e.currentTarget.value })}
                      />
                      {err && (
                        <p class="field-error" role="alert">
                          {err}
                        </p>
                      )}
                    </td>
                    <td>
                      <input
                        aria-label={`Variable ${i + 1} value`}
                        value={v.value}
                        onInput={(e) => setVar(i, { value: e.currentTarget.value })}
                      />
                    </td>
                    <td>
                      <button
                        type="button"
                        class="button small danger"
                        onClick={() => set({ variables: f.variables.filter((_, j) => j !== i) })}
                      >
                        Remove variable {v.key || i + 1}
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <p>
        <button type="button" class="button small" onClick={() => set({ variables: [...f.variables, { key: '', value: '' }] })}>
          Add a variable
        </button>
      </p>
    </SectionForm>
  );
}
