import type { ComponentChildren, JSX } from 'preact';
import { useId } from 'preact/hooks';

// A labelled control with its hint and the server's message for it. The message is tied to
// the control (aria-describedby, aria-invalid) so screen readers announce it.

interface FieldProps {
  label: string;
  hint?: ComponentChildren;
  error?: string | undefined;
  children: (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => ComponentChildren;
}

export function Field({ label, hint, error, children }: FieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : '';
  const errorId = error ? `${id}-error` : '';
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div class={`field${error ? ' field-invalid' : ''}`}>
      <label for={id}>{label}</label>
      {children({ id, describedBy, invalid: !!error })}
      {hint && (
        <p class="hint" id={hintId}>
          {hint}
        </p>
      )}
      {error && (
        <p class="field-error" id={errorId} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

type InputProps = Omit<JSX.InputHTMLAttributes<HTMLInputElement>, 'onInput' | 'value' | 'label'> & {
  label: string;
  value: string;
  onValue: (value: string) => void;
  hint?: ComponentChildren;
  error?: string | undefined;
};

export function TextField({ label, value, onValue, hint, error, ...rest }: InputProps) {
  return (
    <Field label={label} hint={hint} error={error}>
      {({ id, describedBy, invalid }) => (
        <input
          id={id}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          value={value}
          onInput={(e) => onValue(e.currentTarget.value)}
          {...rest}
        />
      )}
    </Field>
  );
}

type AreaProps = Omit<JSX.TextareaHTMLAttributes<HTMLTextAreaElement>, 'onInput' | 'value' | 'label'> & {
  label: string;
  value: string;
  onValue: (value: string) => void;
  hint?: ComponentChildren;
  error?: string | undefined;
};

export function TextArea({ label, value, onValue, hint, error, ...rest }: AreaProps) {
  return (
    <Field label={label} hint={hint} error={error}>
      {({ id, describedBy, invalid }) => (
        <textarea
          id={id}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          value={value}
          onInput={(e) => onValue(e.currentTarget.value)}
          {...rest}
        />
      )}
    </Field>
  );
}

interface SelectProps<V extends string> {
  label: string;
  value: V;
  options: ReadonlyArray<{ value: V; label: string }>;
  onValue: (value: V) => void;
  hint?: ComponentChildren;
  error?: string | undefined;
  disabled?: boolean;
}

export function SelectField<V extends string>({ label, value, options, onValue, hint, error, disabled }: SelectProps<V>) {
  return (
    <Field label={label} hint={hint} error={error}>
      {({ id, describedBy, invalid }) => (
        <select
          id={id}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          value={value}
          disabled={disabled}
          onChange={(e) => onValue(e.currentTarget.value as V)}
        >
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

export function Checkbox({
  label,
  checked,
  onValue,
  hint,
  disabled,
}: {
  label: string;
  checked: boolean;
  onValue: (v: boolean) => void;
  hint?: string;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div class="check">
      <input
        type="checkbox"
        id={id}
        checked={checked}
        disabled={disabled}
        onChange={(e) => onValue(e.currentTarget.checked)}
        aria-describedby={hint ? `${id}-hint` : undefined}
      />
      <label for={id}>{label}</label>
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
    </div>
  );
}
