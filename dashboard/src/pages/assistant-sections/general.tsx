import { TextArea, TextField } from '../../ui/field.js';
import { SectionForm, type SectionProps } from './section-form.js';

export function GeneralSection({ m, readOnly }: SectionProps) {
  const f = m.forms.value!.general;
  const s = m.subs.general;
  const set = (change: Partial<typeof f>) => m.edit('general', change);
  const up = m.avatarUpload;
  return (
    <SectionForm m={m} section="general" readOnly={readOnly} title="General">
      <TextField label="Name" required maxLength={100} value={f.name} onValue={(v) => set({ name: v })} error={s.fieldError('name')} />
      <TextArea label="Description" hint="For your team; visitors do not see it." value={f.description} onValue={(v) => set({ description: v })} error={s.fieldError('description')} />
      <div class="row avatar-row">
        {f.avatarUrl && <img class="avatar-preview" src={f.avatarUrl} alt="Current avatar" width={48} height={48} />}
        <TextField label="Avatar URL" type="url" placeholder="https://…" value={f.avatarUrl} onValue={(v) => set({ avatarUrl: v })} error={s.fieldError('avatarUrl')} />
      </div>
      <div class="field">
        <label for="avatar-file">Or upload an avatar</label>
        <input id="avatar-file" type="file" accept="image/png,image/jpeg,image/webp,image/gif" aria-describedby="avatar-file-hint"
          onChange={(e) => { const file = e.currentTarget.files?.[0]; if (file) void m.uploadAvatar(file); }} />
        <p class="hint" id="avatar-file-hint">PNG, JPEG, WebP or GIF, up to 1 MiB. It is saved at once.</p>
        {up.busy.value && <p role="status">Uploading…</p>}
        {up.error.value && <p class="field-error" role="alert">{up.error.value.message}</p>}
        {up.saved.value && <p class="saved" role="status">Avatar uploaded</p>}
      </div>
      <TextField label="Language" hint='A language tag such as "en", "de" or "pt-BR".' value={f.language} onValue={(v) => set({ language: v })} error={s.fieldError('language')} />
    </SectionForm>
  );
}
