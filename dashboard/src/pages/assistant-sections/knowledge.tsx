import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { to } from '../../lib/paths.js';
import { SectionForm, type SectionProps } from './section-form.js';

const PRIORITIES = Array.from({ length: 10 }, (_, i) => 10 - i);

export function KnowledgeSection({ m, readOnly }: SectionProps) {
  const f = m.forms.value!.knowledge;
  const s = m.subs.knowledge;
  const pick = useSignal('');
  useEffect(() => {
    void m.knowledgeBases.load();
  }, []);
  const all = m.knowledgeBases.data.value ?? [];
  const nameOf = (id: string) => all.find((k) => k.id === id)?.name ?? id;
  const unconnected = all.filter((k) => !f.bases.some((b) => b.id === k.id));
  const setBases = (bases: typeof f.bases) => m.edit('knowledge', { bases });
  return (
    <SectionForm
      m={m}
      section="knowledge"
      readOnly={readOnly}
      title="Knowledge"
      intro="The knowledge bases this assistant answers from. Passages from a higher priority base rank above equally good ones from a lower one (10 highest)."
    >
      {s.fieldError('knowledgeBases') && (
        <p class="field-error" role="alert">
          {s.fieldError('knowledgeBases')}
        </p>
      )}
      {f.bases.length === 0 ? (
        <p class="notice" role="status">
          No knowledge base connected: the assistant can only answer from templates.
        </p>
      ) : (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Connected knowledge bases</caption>
            <thead>
              <tr>
                <th scope="col">Knowledge base</th>
                <th scope="col">Priority</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {f.bases.map((b, i) => {
                const kb = all.find((k) => k.id === b.id);
                return (
                  <tr key={b.id}>
                    <td>
                      <a href={to(`/knowledge/${b.id}`)}>{nameOf(b.id)}</a>
                      {kb && <span class="muted"> · {kb.documentCount} documents</span>}
                    </td>
                    <td>
                      <label class="visually-hidden" for={`prio-${b.id}`}>
                        Priority of {nameOf(b.id)}
                      </label>
                      <select
                        id={`prio-${b.id}`}
                        class="narrow"
                        value={String(b.priority)}
                        onChange={(e) => setBases(f.bases.map((x, j) => (j === i ? { ...x, priority: Number(e.currentTarget.value) } : x)))}
                      >
                        {PRIORITIES.map((p) => (
                          <option key={p} value={String(p)}>
                            {p}
                          </option>
                        ))}
                      </select>
                      {s.fieldError(`knowledgeBases.${i}`) && (
                        <p class="field-error" role="alert">
                          {s.fieldError(`knowledgeBases.${i}`)}
                        </p>
                      )}
                    </td>
                    <td>
                      <button type="button" class="button small danger" onClick={() => setBases(f.bases.filter((_, j) => j !== i))}>
                        Remove {nameOf(b.id)}
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <div class="row add-row">
        <div class="field">
          <label for="kb-add">Connect a knowledge base</label>
          <select
            id="kb-add"
            value={pick.value}
            onChange={(e) => {
              pick.value = e.currentTarget.value;
            }}
            disabled={!unconnected.length}
          >
            <option value="">{unconnected.length ? 'Choose…' : all.length ? 'All bases are connected' : 'No knowledge bases yet'}</option>
            {unconnected.map((k) => (
              <option key={k.id} value={k.id}>
                {k.name}
              </option>
            ))}
          </select>
        </div>
        <button
          type="button"
          class="button"
          disabled={!pick.value}
          onClick={() => {
            setBases([...f.bases, { id: pick.value, priority: 5 }]);
            pick.value = '';
          }}
        >
          Add
        </button>
      </div>
      {!all.length && !m.knowledgeBases.loading.value && (
        <p class="hint">
          <a href={to('/knowledge')}>Create a knowledge base</a> first.
        </p>
      )}
      <p class="hint">Changes apply when you save.</p>
    </SectionForm>
  );
}
