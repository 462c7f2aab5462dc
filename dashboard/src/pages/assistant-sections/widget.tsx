import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { CodeBlock } from '../../ui/common.js';
import { SelectField, TextArea, TextField } from '../../ui/field.js';
import type { WidgetSettings } from '../assistants.types.js';
import { widgetOverrides } from '../assistant-editor.model.js';
import { WIDGET_TEXT_FIELDS } from '../widget-texts.js';
import { defaultMessageHint, useDefaultMessages } from './default-message.js';
import { SectionForm, type SectionProps } from './section-form.js';

const THEMES: ReadonlyArray<{ value: WidgetSettings['theme']; label: string }> = [
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
  { value: 'custom', label: 'Custom colours' },
];
const POSITIONS: ReadonlyArray<{ value: WidgetSettings['position']; label: string }> = [
  { value: 'bottom-right', label: 'Bottom right' },
  { value: 'bottom-left', label: 'Bottom left' },
  { value: 'top-right', label: 'Top right' },
  { value: 'top-left', label: 'Top left' },
];
const STATES: ReadonlyArray<{ value: WidgetSettings['initialState']; label: string }> = [
  { value: 'collapsed', label: 'Collapsed (launcher button)' },
  { value: 'expanded', label: 'Expanded (chat open)' },
];
/** How long the preview waits after the last keystroke before it reloads. */
export const PREVIEW_DEBOUNCE_MS = 400;

export function embedCode(origin: string, id: string): string {
  return `<script src="${origin}/js/widget.js" data-app-id="${id}" defer></script>`;
}

export function previewUrl(id: string, overrides: Record<string, unknown>, rev: number): string {
  return `/dashboard/widget-preview.html?appId=${encodeURIComponent(id)}&rev=${rev}#${encodeURIComponent(JSON.stringify(overrides))}`;
}

function ColourField({
  label,
  value,
  onValue,
  error,
}: {
  label: string;
  value: string;
  onValue: (v: string) => void;
  error?: string | undefined;
}) {
  const hex = /^#[0-9a-fA-F]{6}$/.test(value) ? value : '#000000';
  return (
    <div class="colour-field">
      <TextField label={label} value={value} onValue={onValue} error={error} hint="#rrggbb, rgb(), hsl() or a colour name" />
      <input type="color" aria-label={`Pick the ${label.toLowerCase()}`} value={hex} onInput={(e) => onValue(e.currentTarget.value)} />
    </div>
  );
}

export function WidgetSection({ m, readOnly }: SectionProps) {
  const f = m.forms.value!.widget;
  const s = m.subs.widget;
  const set = (change: Partial<typeof f>) => m.edit('widget', change);
  // The preview reloads (debounced) with the unsaved settings in its URL fragment; a new
  // query value makes it a new document, since a fragment change alone would not reload it.
  const overrides = JSON.stringify(widgetOverrides(f));
  const src = useSignal(previewUrl(m.id, JSON.parse(overrides) as Record<string, unknown>, 0));
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const timer = setTimeout(() => {
      src.value = previewUrl(m.id, JSON.parse(overrides) as Record<string, unknown>, Date.now());
    }, PREVIEW_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [overrides]);
  const code = embedCode(location.origin, m.id);
  // Placeholders: the texts of the language picked in General (saved or not), which an empty field keeps.
  const language = m.forms.value!.general.language.trim() || 'en';
  useEffect(() => {
    void m.loadTextDefaults(language);
  }, [language]);
  const loaded = m.textDefaults.value?.language === language ? m.textDefaults.value : null;
  const defaults = loaded?.texts ?? {};
  // The welcome message is the saved record's: the default of the saved language until the owner writes one.
  const saved = useDefaultMessages(m);
  const welcomeHint = readOnly
    ? undefined
    : defaultMessageHint(f.welcomeMessage, saved.messages.welcome, (text) => set({ welcomeMessage: text }));
  return (
    <div class="widget-layout">
      <div>
        <SectionForm
          m={m}
          section="widget"
          readOnly={readOnly}
          title="Widget"
          intro="How the chat widget looks on your site. The preview shows your changes before you save."
        >
          <div class="row">
            <SelectField
              label="Widget theme"
              value={f.theme}
              options={THEMES}
              onValue={(v) => set({ theme: v })}
              error={s.fieldError('widget.theme')}
            />
            <SelectField
              label="Position"
              value={f.position}
              options={POSITIONS}
              onValue={(v) => set({ position: v })}
              error={s.fieldError('widget.position')}
            />
            <SelectField
              label="Initial state"
              value={f.initialState}
              options={STATES}
              onValue={(v) => set({ initialState: v })}
              error={s.fieldError('widget.initialState')}
            />
          </div>
          {f.theme === 'custom' && (
            <fieldset>
              <legend>Custom colours</legend>
              {s.fieldError('widget.colors') && !['primary', 'background', 'text'].some((k) => s.fieldError(`widget.colors.${k}`)) && (
                <p class="field-error" role="alert">
                  {s.fieldError('widget.colors')}
                </p>
              )}
              <ColourField
                label="Primary colour"
                value={f.primary}
                onValue={(v) => set({ primary: v })}
                error={s.fieldError('widget.colors.primary')}
              />
              <ColourField
                label="Background colour"
                value={f.background}
                onValue={(v) => set({ background: v })}
                error={s.fieldError('widget.colors.background')}
              />
              <ColourField
                label="Text colour"
                value={f.text}
                onValue={(v) => set({ text: v })}
                error={s.fieldError('widget.colors.text')}
              />
            </fieldset>
          )}
          <TextArea
            label="Welcome message"
            rows={2}
            lang={saved.lang}
            dir={saved.dir}
            value={f.welcomeMessage}
            onValue={(v) => set({ welcomeMessage: v })}
            hint={welcomeHint}
            error={s.fieldError('widget.welcomeMessage')}
          />
          <TextField
            label="Launcher icon URL"
            inputMode="url"
            placeholder="https://…"
            value={f.iconUrl}
            onValue={(v) => set({ iconUrl: v })}
            error={s.fieldError('widget.iconUrl')}
          />
          <TextArea
            label="Allowed origins"
            rows={3}
            placeholder="https://www.example.com"
            hint="One per line: the sites that may embed this widget (scheme, host and optional port). This dashboard's own origin is always allowed."
            value={f.allowedOrigins}
            onValue={(v) => set({ allowedOrigins: v })}
            error={s.fieldError('widget.allowedOrigins')}
          />
          <details class="widget-texts" open={Object.values(f.strings).some((v) => v !== '') || undefined}>
            <summary>Widget texts</summary>
            <p class="hint">
              Reword any text the widget shows. An empty field keeps the default of the assistant&apos;s language ({language}), shown
              greyed; <code>{'{name}'}</code> is the assistant&apos;s name.
            </p>
            {WIDGET_TEXT_FIELDS.map(({ key, label }) => (
              <TextField
                key={key}
                label={label}
                maxLength={200}
                dir={loaded?.dir ?? 'auto'}
                lang={language}
                placeholder={defaults[key] ?? ''}
                value={f.strings[key] ?? ''}
                onValue={(v) => set({ strings: { ...f.strings, [key]: v } })}
                error={s.fieldError(`widget.strings.${key}`)}
              />
            ))}
          </details>
        </SectionForm>
        <section class="card" aria-labelledby="embed-title">
          <h2 id="embed-title">Embed code</h2>
          <p class="muted">
            Paste this before <code>{'</body>'}</code> on every page of an allowed origin.
          </p>
          <CodeBlock code={code} label="Embed code" />
        </section>
      </div>
      <section class="card preview-card" aria-labelledby="preview-title">
        <h2 id="preview-title">Live preview</h2>
        <p class="hint">The real widget with your unsaved settings; chatting in it uses the assistant as saved.</p>
        <iframe class="widget-preview" title="Widget preview" src={src.value} />
      </section>
    </div>
  );
}
