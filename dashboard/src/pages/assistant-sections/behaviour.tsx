import { TextField } from '../../ui/field.js';
import { SectionForm, type SectionProps } from './section-form.js';

export function BehaviourSection({ m, readOnly }: SectionProps) {
  const f = m.forms.value!.behaviour;
  const s = m.subs.behaviour;
  const set = (change: Partial<typeof f>) => m.edit('behaviour', change);
  return (
    <SectionForm m={m} section="behaviour" readOnly={readOnly} title="Behaviour">
      <TextField
        label="History limit"
        inputMode="numeric"
        hint="Earlier messages of the conversation given as context, 0 to 50."
        value={f.historyLimit}
        onValue={(v) => set({ historyLimit: v })}
        error={s.fieldError('historyLimit')}
      />
      <TextField
        label="Maximum response length"
        inputMode="numeric"
        hint="Characters, 100 to 20,000; a hard cap on every answer."
        value={f.maxResponseLength}
        onValue={(v) => set({ maxResponseLength: v })}
        error={s.fieldError('maxResponseLength')}
      />
      <TextField
        label="Confidence threshold"
        inputMode="decimal"
        hint="0 to 1. Below it the assistant gives the fallback message instead of an answer."
        value={f.confidenceThreshold}
        onValue={(v) => set({ confidenceThreshold: v })}
        error={s.fieldError('confidenceThreshold')}
      />
    </SectionForm>
  );
}
