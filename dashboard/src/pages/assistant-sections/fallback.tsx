import { Checkbox, TextArea, TextField } from '../../ui/field.js';
import { defaultMessageHint, useDefaultMessages } from './default-message.js';
import { SectionForm, type SectionProps } from './section-form.js';

export function FallbackSection({ m, readOnly }: SectionProps) {
  const f = m.forms.value!.fallback;
  const s = m.subs.fallback;
  const set = (change: Partial<typeof f>) => m.edit('fallback', change);
  const { lang, dir, messages } = useDefaultMessages(m);
  const hint = (value: string, key: 'fallback' | 'handoff', field: 'message' | 'handoffMessage') =>
    readOnly ? undefined : defaultMessageHint(value, messages[key], (text) => set({ [field]: text }));
  return (
    <SectionForm
      m={m}
      section="fallback"
      readOnly={readOnly}
      title="Fallback"
      intro="What the assistant says when its confidence is below the threshold (set under Behaviour)."
    >
      <TextArea
        label="Fallback message"
        rows={3}
        lang={lang}
        dir={dir}
        value={f.message}
        onValue={(v) => set({ message: v })}
        hint={hint(f.message, 'fallback', 'message')}
        error={s.fieldError('fallback.message')}
      />
      <Checkbox label="Suggest related questions" checked={f.suggestions} onValue={(v) => set({ suggestions: v })} />
      <Checkbox
        label="Collect feedback (thumbs up and down on answers)"
        checked={f.collectFeedback}
        onValue={(v) => set({ collectFeedback: v })}
      />
      <fieldset>
        <legend>Handoff to a person</legend>
        <Checkbox label="Offer a handoff" checked={f.handoffEnabled} onValue={(v) => set({ handoffEnabled: v })} />
        <TextArea
          label="Handoff message"
          rows={2}
          lang={lang}
          dir={dir}
          value={f.handoffMessage}
          onValue={(v) => set({ handoffMessage: v })}
          hint={hint(f.handoffMessage, 'handoff', 'handoffMessage')}
          error={s.fieldError('fallback.handoff.message')}
        />
        <div class="row">
          <TextField
            label="Handoff URL"
            inputMode="url"
            placeholder="https://example.com/contact"
            value={f.handoffUrl}
            onValue={(v) => set({ handoffUrl: v })}
            error={s.fieldError('fallback.handoff.url')}
          />
          <TextField
            label="Handoff email"
            type="email"
            placeholder="support@example.com"
            value={f.handoffEmail}
            onValue={(v) => set({ handoffEmail: v })}
            error={s.fieldError('fallback.handoff.email')}
          />
        </div>
      </fieldset>
    </SectionForm>
  );
}
