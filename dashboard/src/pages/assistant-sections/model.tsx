import { useEffect } from 'preact/hooks';
import { SelectField, TextField } from '../../ui/field.js';
import type { Provider } from '../assistants.types.js';
import { SectionForm, type SectionProps } from './section-form.js';

const PROVIDERS: ReadonlyArray<{ value: Provider; label: string }> = [
  { value: 'extractive', label: 'Extractive (built in, no model)' },
  { value: 'openai', label: 'OpenAI-compatible (OpenAI, Ollama, vLLM, LM Studio…)' },
  { value: 'anthropic', label: 'Anthropic' },
];

export function ModelSection({ m, readOnly }: SectionProps) {
  const f = m.forms.value!.model;
  const s = m.subs.model;
  const set = (change: Partial<typeof f>) => m.edit('model', change);
  useEffect(() => {
    if (!m.providers.data.value && !m.providers.loading.value) void m.providers.load();
  }, []);
  const info = m.providers.data.value?.find((p) => p.provider === f.provider);
  const usesModel = f.provider !== 'extractive';
  return (
    <SectionForm
      m={m}
      section="model"
      readOnly={readOnly}
      title="Model"
      intro="Extractive answers quote your knowledge directly. A language model writes answers from the retrieved passages."
    >
      <SelectField
        label="Provider"
        value={f.provider}
        options={PROVIDERS}
        onValue={(v) => set({ provider: v })}
        error={s.fieldError('model.provider')}
      />
      {info && !info.configured && (
        <p class="notice notice-warn" role="status">
          The server has no API key for {f.provider}: saving this provider is refused until the operator sets{' '}
          {f.provider === 'openai' ? 'OPENAI_API_KEY' : 'ANTHROPIC_API_KEY'} (or a base URL that needs no key).
        </p>
      )}
      {m.providers.error.value && <p class="hint">Could not check the server's providers ({m.providers.error.value.message}).</p>}
      {usesModel && (
        <>
          <TextField
            label="Model name"
            placeholder={info?.defaultModel ?? ''}
            hint={info?.defaultModel ? `Empty = the server's default, ${info.defaultModel}.` : undefined}
            value={f.name}
            onValue={(v) => set({ name: v })}
            error={s.fieldError('model.name')}
          />
          <TextField
            label="Temperature"
            inputMode="decimal"
            hint="0 to 2; lower is more literal."
            value={f.temperature}
            onValue={(v) => set({ temperature: v })}
            error={s.fieldError('model.temperature')}
          />
          <TextField
            label="Base URL"
            type="text"
            inputMode="url"
            placeholder={info?.defaultBaseUrl ?? 'https://api.example.com/v1'}
            hint="For self-hosted or compatible servers; empty = the provider's default."
            value={f.baseUrl}
            onValue={(v) => set({ baseUrl: v })}
            error={s.fieldError('model.baseUrl')}
          />
        </>
      )}
    </SectionForm>
  );
}
