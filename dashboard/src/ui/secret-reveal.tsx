import { CopyButton } from './common.js';

// A secret the server answers once (an API key, a webhook signing secret): shown with a copy
// button and a plain warning that it will not be shown again.
export function SecretReveal({ label, secret, what }: { label: string; secret: string; what: string }) {
  return (
    <div class="secret-reveal">
      <p class="notice notice-warn" role="note">
        Copy this {what} now: it is shown only once. Store it somewhere safe; if you lose it, rotate or create a new one.
      </p>
      <p class="secret-label">{label}</p>
      <div class="secret-value">
        <code aria-label={label} tabIndex={0}>
          {secret}
        </code>
        <CopyButton text={secret} label={`Copy ${what}`} />
      </div>
    </div>
  );
}
