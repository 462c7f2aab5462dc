import type { ComponentChildren } from 'preact';
import { useSignal } from '@preact/signals';
import type { ApiError } from '../lib/api.js';

export function PageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: ComponentChildren;
  actions?: ComponentChildren;
}) {
  return (
    <header class="page-header">
      <div>
        <h1>{title}</h1>
        {description && <p class="muted">{description}</p>}
      </div>
      {actions && <div class="actions">{actions}</div>}
    </header>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p class="loading" role="status">
      {label}
    </p>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <div class="empty">
      <h2>{title}</h2>
      {children}
    </div>
  );
}

/** An API error with a retry where retrying can help (network, server, rate limit). */
export function ErrorNotice({ error, onRetry }: { error: ApiError | null; onRetry?: () => void }) {
  if (!error) return null;
  const retriable = error.kind === 'network' || error.kind === 'server' || error.kind === 'rate_limited';
  return (
    <div class="notice notice-error" role="alert">
      <span>{error.message}</span>
      {retriable && onRetry && (
        <button type="button" class="button small" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function SavedNotice({ show, children = 'Saved' }: { show: boolean; children?: ComponentChildren }) {
  return (
    <span class="saved" role="status">
      {show ? children : ''}
    </span>
  );
}

/** Copies text and says so; falls back to selecting it when the clipboard is refused. */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const copied = useSignal(false);
  return (
    <button
      type="button"
      class="button small"
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(text);
          copied.value = true;
          setTimeout(() => {
            copied.value = false;
          }, 2000);
        } catch {
          copied.value = false;
        }
      }}
    >
      {copied.value ? 'Copied' : label}
      <span class="visually-hidden" role="status">
        {copied.value ? 'Copied to the clipboard' : ''}
      </span>
    </button>
  );
}

export function CodeBlock({ code, label }: { code: string; label: string }) {
  return (
    <div class="code-block">
      <pre aria-label={label} tabIndex={0}>
        <code>{code}</code>
      </pre>
      <CopyButton text={code} label={`Copy ${label.toLowerCase()}`} />
    </div>
  );
}

export function Pager({ page, pages, onPage }: { page: number; pages: number; onPage: (p: number) => void }) {
  if (pages <= 1) return null;
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" class="button small" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span>
        Page {page} of {pages}
      </span>
      <button type="button" class="button small" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}

export const formatDate = (iso: string | null | undefined): string =>
  iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '—';

export const formatBytes = (n: number): string =>
  n < 1024 ? `${n} B` : n < 1024 ** 2 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 ** 2).toFixed(1)} MB`;
