import { signal, type Signal } from '@preact/signals';
import { useMemo } from 'preact/hooks';
import { ApiError } from './api.js';

// Page state lives in one signals model per page (createXModel), like the widget's: signals,
// computed values and actions; components only read it and call actions.

/** Creates a page model once per mounted page (and again when a key such as an id changes). */
export function useModel<M>(create: () => M, keys: unknown[] = []): M {
  // `keys`, not `create` (a new closure each render), decide when the model is made again.
  return useMemo(create, keys);
}

/** A value loaded from the API: data, loading flag, and the error to show. */
export interface Loadable<T> {
  data: Signal<T | null>;
  loading: Signal<boolean>;
  error: Signal<ApiError | null>;
  load(): Promise<void>;
}

export function loadable<T>(fetcher: () => Promise<T>): Loadable<T> {
  const data = signal<T | null>(null);
  const loading = signal(false);
  const error = signal<ApiError | null>(null);
  let seq = 0;
  return {
    data,
    loading,
    error,
    async load() {
      const mine = ++seq;
      loading.value = true;
      error.value = null;
      try {
        const value = await fetcher();
        if (mine === seq) data.value = value;
      } catch (err) {
        if (mine === seq) error.value = asApiError(err);
      } finally {
        if (mine === seq) loading.value = false;
      }
    },
  };
}

export function asApiError(err: unknown): ApiError {
  return err instanceof ApiError ? err : new ApiError('server', (err as Error)?.message ?? 'Something went wrong');
}

/**
 * A form's save: what the user typed stays in the form's own signals; a failure keeps it and
 * shows the server's message (per field where it names one). Network errors can be retried.
 */
export interface Submission {
  busy: Signal<boolean>;
  error: Signal<ApiError | null>;
  saved: Signal<boolean>;
  run<T>(action: () => Promise<T>): Promise<T | undefined>;
  fieldError(field: string): string | undefined;
}

export function submission(): Submission {
  const busy = signal(false);
  const error = signal<ApiError | null>(null);
  const saved = signal(false);
  return {
    busy,
    error,
    saved,
    async run(action) {
      busy.value = true;
      error.value = null;
      saved.value = false;
      try {
        const result = await action();
        saved.value = true;
        return result;
      } catch (err) {
        error.value = asApiError(err);
        return undefined;
      } finally {
        busy.value = false;
      }
    },
    fieldError(field) {
      const fields = error.value?.fields ?? {};
      return fields[field] ?? Object.entries(fields).find(([k]) => k.startsWith(`${field}.`))?.[1];
    },
  };
}
