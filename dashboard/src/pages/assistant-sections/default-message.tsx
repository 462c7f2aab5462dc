import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import type { AssistantEditorModel, DefaultMessageKey } from '../assistant-editor.model.js';

// The fallback, handoff and welcome messages: until the owner writes their own, each is Parley's
// default in the assistant's language (the server resolves it; a language change switches it).

/** The saved language's default messages, and how to show text of that language (lang, dir). */
export function useDefaultMessages(m: AssistantEditorModel): {
  lang: string;
  dir: 'ltr' | 'rtl' | 'auto';
  messages: Partial<Record<DefaultMessageKey, string>>;
} {
  const language = m.assistant.data.value?.language ?? 'en';
  useEffect(() => {
    void m.loadDefaultMessages(language);
  }, [language]);
  const loaded = m.defaultMessages.value?.language === language ? m.defaultMessages.value : null;
  return { lang: language, dir: loaded?.dir ?? 'auto', messages: loaded?.messages ?? {} };
}

/** The hint under a message field: that it is the default, or a way back to it. */
export function defaultMessageHint(value: string, defaultText: string | undefined, useDefault: (text: string) => void): ComponentChildren {
  if (defaultText === undefined) return undefined;
  if (value === defaultText) return "Parley's default: it follows the assistant's language until you write your own.";
  return (
    <button type="button" class="link-button" onClick={() => useDefault(defaultText)}>
      Use the default in the assistant&apos;s language
    </button>
  );
}
