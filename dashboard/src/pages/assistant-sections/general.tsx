import { useSignal } from '@preact/signals';
import { SelectField, TextArea, TextField } from '../../ui/field.js';
import { hasTexts, languageOptions, OTHER } from '../languages.js';
import { SectionForm, type SectionProps } from './section-form.js';

export function GeneralSection({ m, readOnly }: SectionProps) {
  const f = m.forms.value!.general;
  const s = m.subs.general;
  const set = (change: Partial<typeof f>) => m.edit('general', change);
  const up = m.avatarUpload;
  // "Another language tag…" shows a text field; a tag typed there stays picked among the options.
  const typing = useSignal(false);
  const options = languageOptions(f.language, navigator.language);
  return (
    <SectionForm m={m} section="general" readOnly={readOnly} title="General">
      <TextField label="Name" required maxLength={100} value={f.name} onValue={(v) => set({ name: v })} error={s.fieldError('name')} />
      <TextArea
        label="Description"
        hint="For your team; visitors do not see it."
        value={f.description}
        onValue={(v) => set({ description: v })}
        error={s.fieldError('description')}
      />
      <div class="row avatar-row">
        {f.avatarUrl && <img class="avatar-preview" src={f.avatarUrl} alt="Current avatar" width={48} height={48} />}
        <TextField
          label="Avatar URL"
          type="url"
          placeholder="https://…"
          value={f.avatarUrl}
          onValue={(v) => set({ avatarUrl: v })}
          error={s.fieldError('avatarUrl')}
        />
      </div>
      <div class="field">
        <label for="avatar-file">Or upload an avatar</label>
        <input
          id="avatar-file"
          type="file"
          accept="image/png,image/jpeg,image/webp,image/gif"
          aria-describedby="avatar-file-hint"
          onChange={(e) => {
            const file = e.currentTarget.files?.[0];
            if (file) void m.uploadAvatar(file);
          }}
        />
        <p class="hint" id="avatar-file-hint">
          PNG, JPEG, WebP or GIF, up to 1 MiB. It is saved at once.
        </p>
        {up.busy.value && <p role="status">Uploading…</p>}
        {up.error.value && (
          <p class="field-error" role="alert">
            {up.error.value.message}
          </p>
        )}
        {up.saved.value && (
          <p class="saved" role="status">
            Avatar uploaded
          </p>
        )}
      </div>
      <SelectField
        label="Language"
        value={typing.value ? OTHER : f.language}
        options={options}
        hint={
          hasTexts(f.language)
            ? 'The assistant answers in it; the widget, the bots and the default messages speak it too.'
            : 'The assistant answers in it; the widget and the bots use English texts for this language.'
        }
        onValue={(v) => {
          typing.value = v === OTHER;
          if (v !== OTHER) set({ language: v });
        }}
        error={typing.value ? undefined : s.fieldError('language')}
      />
      {typing.value && (
        <TextField
          label="Language tag"
          hint='A BCP 47 tag such as "gsw" or "es-419".'
          value={f.language}
          onValue={(v) => set({ language: v })}
          error={s.fieldError('language')}
        />
      )}
    </SectionForm>
  );
}
