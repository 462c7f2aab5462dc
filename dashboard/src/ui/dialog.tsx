import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';

// A modal dialog on the native <dialog>: showModal() makes the rest of the page inert and keeps
// Tab inside; Escape closes it. Focus goes back to whatever opened it.

interface DialogProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ComponentChildren;
  footer?: ComponentChildren;
  wide?: boolean;
}

export function Dialog({ open, title, onClose, children, footer, wide }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open) return;
    const opener = document.activeElement as HTMLElement | null;
    dialog.showModal();
    return () => {
      dialog.close();
      opener?.focus?.();
    };
  }, [open]);
  if (!open) return null;
  return (
    <dialog
      ref={ref}
      class={`dialog${wide ? ' dialog-wide' : ''}`}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <header class="dialog-header">
        <h2 id={titleId}>{title}</h2>
        <button type="button" class="icon-button" aria-label="Close" onClick={onClose}>
          ×
        </button>
      </header>
      <div class="dialog-body">{children}</div>
      {footer && <footer class="dialog-footer">{footer}</footer>}
    </dialog>
  );
}

interface ConfirmProps {
  open: boolean;
  title: string;
  message: ComponentChildren;
  confirmLabel: string;
  busy?: boolean;
  error?: string | null;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Destructive actions ask first; the button says exactly what will happen. */
export function ConfirmDialog({ open, title, message, confirmLabel, busy, error, onConfirm, onCancel }: ConfirmProps) {
  return (
    <Dialog
      open={open}
      title={title}
      onClose={onCancel}
      footer={
        <>
          <button type="button" class="button" onClick={onCancel}>
            Cancel
          </button>
          <button type="button" class="button danger" disabled={busy} onClick={onConfirm}>
            {busy ? 'Working…' : confirmLabel}
          </button>
        </>
      }
    >
      <div>{message}</div>
      {error && (
        <p class="field-error" role="alert">
          {error}
        </p>
      )}
    </Dialog>
  );
}
