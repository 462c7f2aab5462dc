import { signal, type Signal } from '@preact/signals';
import type { ApiClient } from '../lib/api.js';
import { loadable, submission, type Loadable, type Submission } from '../lib/model.js';
import { widgetTextForm, widgetTextOverrides, widgetTextPatch, type WidgetTextForm } from './widget-texts.js';
import type {
  ApiKeyRecord,
  Assistant,
  KnowledgeBaseSummary,
  MatchKind,
  ProviderInfo,
  Template,
  WidgetSettings,
} from './assistants.types.js';

/** The assistant's messages whose defaults follow its language (server/src/i18n/texts.ts DEFAULT_MESSAGE_KEYS). */
export type DefaultMessageKey = 'fallback' | 'handoff' | 'welcome';

// The assistant editor's state: the saved assistant, one form per section (what the user is
// typing, kept across tab switches and failed saves), and the save of each section as a
// PATCH of only that section's fields. Numbers stay strings while typed: the server's
// validation message ("model.temperature: …") is what the user sees, not a client guess.

export const SECTIONS = [
  'general',
  'model',
  'knowledge',
  'prompt',
  'behaviour',
  'templates',
  'fallback',
  'widget',
  'channels',
  'api',
] as const;
export type Section = (typeof SECTIONS)[number];
export type SaveableSection = Exclude<Section, 'api'>;
export const SECTION_LABELS: Record<Section, string> = {
  general: 'General',
  model: 'Model',
  knowledge: 'Knowledge',
  prompt: 'Prompt',
  behaviour: 'Behaviour',
  templates: 'Templates',
  fallback: 'Fallback',
  widget: 'Widget',
  channels: 'Channels',
  api: 'API access',
};

export interface Forms {
  general: { name: string; description: string; avatarUrl: string; language: string };
  model: { provider: Assistant['model']['provider']; name: string; temperature: string; baseUrl: string };
  knowledge: { bases: Array<{ id: string; priority: number }> };
  prompt: { systemPrompt: string; variables: Array<{ key: string; value: string }> };
  behaviour: { historyLimit: string; maxResponseLength: string; confidenceThreshold: string };
  templates: { items: Array<{ id?: string; trigger: string; match: MatchKind; response: string }> };
  fallback: {
    message: string;
    suggestions: boolean;
    collectFeedback: boolean;
    handoffEnabled: boolean;
    handoffMessage: string;
    handoffUrl: string;
    handoffEmail: string;
  };
  widget: {
    theme: WidgetSettings['theme'];
    primary: string;
    background: string;
    text: string;
    position: WidgetSettings['position'];
    initialState: WidgetSettings['initialState'];
    welcomeMessage: string;
    iconUrl: string;
    allowedOrigins: string;
    strings: WidgetTextForm;
  };
  channels: {
    discordBotName: string;
    discordDescription: string;
    discordAvatarUrl: string;
    discordCommand: string;
    discordChannels: string;
    slackBotName: string;
    slackCommand: string;
    slackChannels: string;
    teamsBotName: string;
    teamsChannels: string;
  };
}

const DEFAULT_COLORS = { primary: '#2452c7', background: '#ffffff', text: '#1b1f24' };

/** Each section's form, filled from the saved assistant. */
export function formsFrom(a: Assistant): Forms {
  const colors = a.widget.colors ?? DEFAULT_COLORS;
  return {
    general: { name: a.name, description: a.description ?? '', avatarUrl: a.avatarUrl ?? '', language: a.language },
    model: {
      provider: a.model.provider,
      name: a.model.name ?? '',
      temperature: a.model.temperature === undefined ? '' : String(a.model.temperature),
      baseUrl: a.model.baseUrl ?? '',
    },
    knowledge: { bases: a.knowledgeBases.map((k) => ({ ...k })) },
    prompt: { systemPrompt: a.systemPrompt, variables: Object.entries(a.variables).map(([key, value]) => ({ key, value })) },
    behaviour: {
      historyLimit: String(a.historyLimit),
      maxResponseLength: String(a.maxResponseLength),
      confidenceThreshold: String(a.confidenceThreshold),
    },
    templates: { items: a.templates.map((t) => ({ ...t })) },
    fallback: {
      message: a.fallback.message,
      suggestions: a.fallback.suggestions,
      collectFeedback: a.fallback.collectFeedback,
      handoffEnabled: a.fallback.handoff.enabled,
      handoffMessage: a.fallback.handoff.message,
      handoffUrl: a.fallback.handoff.url ?? '',
      handoffEmail: a.fallback.handoff.email ?? '',
    },
    widget: {
      theme: a.widget.theme,
      ...colors,
      position: a.widget.position,
      initialState: a.widget.initialState,
      welcomeMessage: a.widget.welcomeMessage,
      iconUrl: a.widget.iconUrl ?? '',
      allowedOrigins: a.widget.allowedOrigins.join('\n'),
      strings: widgetTextForm(a.widget.strings),
    },
    channels: {
      discordBotName: a.discord.botName ?? '',
      discordDescription: a.discord.description,
      discordAvatarUrl: a.discord.avatarUrl ?? '',
      discordCommand: a.discord.command,
      discordChannels: a.discord.channels.join(', '),
      slackBotName: a.slack.botName ?? '',
      slackCommand: a.slack.command,
      slackChannels: a.slack.channels.join(', '),
      teamsBotName: a.teams.botName ?? '',
      teamsChannels: a.teams.channels.join(', '),
    },
  };
}

/** A typed number as the API wants it; anything else goes as typed so the server names the problem. */
export function numberOrText(v: string): number | string {
  const t = v.trim();
  return t !== '' && Number.isFinite(Number(t)) ? Number(t) : t;
}
const orNull = (v: string): string | null => (v.trim() === '' ? null : v.trim());
const list = (v: string, sep: RegExp): string[] =>
  v
    .split(sep)
    .map((s) => s.trim())
    .filter(Boolean);

/** The widget settings as the widget's config names them (theme, colors, …): the preview's overrides. */
export function widgetOverrides(w: Forms['widget']): Record<string, unknown> {
  return {
    theme: w.theme,
    colors: w.theme === 'custom' ? { primary: w.primary, background: w.background, text: w.text } : null,
    position: w.position,
    initialState: w.initialState,
    welcomeMessage: w.welcomeMessage,
    iconUrl: orNull(w.iconUrl),
    strings: widgetTextOverrides(w.strings),
  };
}

export function templatesBody(items: Forms['templates']['items']): Template[] {
  return items.map((t) => ({ ...(t.id ? { id: t.id } : {}), trigger: t.trigger, match: t.match, response: t.response }));
}

/**
 * The PATCH body of one section: only its own fields, so other sections' unsaved edits stay
 * local. PATCH is a JSON Merge Patch: an emptied model setting and a removed variable are sent
 * as null, which clears them (`saved` is the assistant as loaded, to know what was removed).
 */
export function patchFor<S extends SaveableSection>(
  section: S,
  f: Forms[S],
  saved?: Pick<Assistant, 'variables'>,
): Record<string, unknown> {
  switch (section) {
    case 'general': {
      const g = f as Forms['general'];
      return { name: g.name, description: orNull(g.description), avatarUrl: orNull(g.avatarUrl), language: g.language.trim() };
    }
    case 'model': {
      const m = f as Forms['model'];
      return {
        model: {
          provider: m.provider,
          name: m.name.trim() || null,
          temperature: m.temperature.trim() ? numberOrText(m.temperature) : null,
          baseUrl: m.baseUrl.trim() || null,
        },
      };
    }
    case 'knowledge':
      return { knowledgeBases: (f as Forms['knowledge']).bases.map((b) => ({ id: b.id, priority: b.priority })) };
    case 'prompt': {
      const p = f as Forms['prompt'];
      const typed = Object.fromEntries(p.variables.filter((v) => v.key.trim()).map((v) => [v.key.trim(), v.value]));
      const removed = Object.keys(saved?.variables ?? {})
        .filter((k) => !(k in typed))
        .map((k) => [k, null]);
      return { systemPrompt: p.systemPrompt, variables: { ...Object.fromEntries(removed), ...typed } };
    }
    case 'behaviour': {
      const b = f as Forms['behaviour'];
      return {
        historyLimit: numberOrText(b.historyLimit),
        maxResponseLength: numberOrText(b.maxResponseLength),
        confidenceThreshold: numberOrText(b.confidenceThreshold),
      };
    }
    case 'templates':
      return { templates: templatesBody((f as Forms['templates']).items) };
    case 'fallback': {
      const fb = f as Forms['fallback'];
      return {
        fallback: {
          message: fb.message,
          suggestions: fb.suggestions,
          collectFeedback: fb.collectFeedback,
          handoff: { enabled: fb.handoffEnabled, message: fb.handoffMessage, url: orNull(fb.handoffUrl), email: orNull(fb.handoffEmail) },
        },
      };
    }
    case 'widget': {
      const w = f as Forms['widget'];
      const o = widgetOverrides(w);
      return { widget: { ...o, strings: widgetTextPatch(w.strings), allowedOrigins: list(w.allowedOrigins, /[\s,]+/) } };
    }
    case 'channels': {
      const c = f as Forms['channels'];
      return {
        discord: {
          botName: orNull(c.discordBotName),
          description: c.discordDescription,
          avatarUrl: orNull(c.discordAvatarUrl),
          command: c.discordCommand.trim(),
          channels: list(c.discordChannels, /,/),
        },
        slack: { botName: orNull(c.slackBotName), command: c.slackCommand.trim(), channels: list(c.slackChannels, /,/) },
        teams: { botName: orNull(c.teamsBotName), channels: list(c.teamsChannels, /,/) },
      };
    }
    default:
      return {};
  }
}

/** `{{knowledge}}`, `{{assistant_name}}` and the variables' names: the chips above the prompt. */
export function placeholderChips(variables: Forms['prompt']['variables']): string[] {
  return ['knowledge', 'assistant_name', ...variables.map((v) => v.key.trim()).filter((k) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(k))];
}

/** Inserts text at the cursor (or over the selection); returns the new value and cursor. */
export function insertAt(value: string, start: number, end: number, text: string): { value: string; cursor: number } {
  return { value: value.slice(0, start) + text + value.slice(end), cursor: start + text.length };
}

export interface TemplateMatch {
  id?: string;
  trigger: string;
  match: MatchKind;
  response: string;
}

/** The assistant editor: one form per section, each saved on its own, plus the avatar, the template test and the assistant's API keys. */
export interface AssistantEditorModel {
  id: string;
  /** The assistant as saved. */
  assistant: Loadable<Assistant>;
  /** Every section's form, from the saved assistant and the user's edits; null until loaded. */
  forms: Signal<Forms | null>;
  /** Each section's save. */
  subs: Record<Section, Submission>;
  /** The warnings the API returned with the last save (unknown placeholders, provider notes). */
  warnings: Signal<string[]>;
  /** The model providers this server offers. */
  providers: Loadable<ProviderInfo[]>;
  /** The knowledge bases (first 100) the assistant may use. */
  knowledgeBases: Loadable<KnowledgeBaseSummary[]>;
  /** Loads the assistant and fills the forms from it. */
  load(): Promise<void>;
  /** Changes one section's form (immutably, so signals notice). */
  edit<S extends SaveableSection>(section: S, change: Partial<Forms[S]>): void;
  /** Saves one section. On success that section's form is refreshed from the server's record; on failure it keeps what was typed. */
  save(section: SaveableSection): Promise<boolean>;
  /** A section whose form differs from the saved assistant (its tab shows it). */
  dirty(section: Section): boolean;
  /** The widget texts of a language before the owner's (GET /assistants/:id/texts): the override fields' placeholders. */
  textDefaults: Signal<{ language: string; dir: 'ltr' | 'rtl'; texts: Record<string, string> } | null>;
  /** Reads `textDefaults` for a language (none while the tag is not valid yet). */
  loadTextDefaults(language: string): Promise<void>;
  /**
   * The default fallback, handoff and welcome messages of the saved language (GET /assistants/:id/texts):
   * a field still showing its default says so, and one that does not can go back to it.
   */
  defaultMessages: Signal<{ language: string; dir: 'ltr' | 'rtl'; messages: Partial<Record<DefaultMessageKey, string>> } | null>;
  /** Reads `defaultMessages` for a language, once per language. */
  loadDefaultMessages(language: string): Promise<void>;
  avatarUpload: Submission;
  /** Uploads an avatar image (multipart `file`) and puts its URL in the General form. */
  uploadAvatar(file: File): Promise<void>;
  /** The message tried against the unsaved templates. */
  testMessage: Signal<string>;
  /** The template it matched, if any. */
  testResult: Signal<{ match: TemplateMatch | null } | null>;
  testing: Submission;
  /** Tries `testMessage` against the templates as edited. */
  testTemplates(): Promise<void>;
  /** The API keys bound to this assistant. */
  keys: Loadable<ApiKeyRecord[]>;
  /** The new key's form. */
  newKey: { name: Signal<string>; allowedIps: Signal<string>; perMinute: Signal<string>; perDay: Signal<string> };
  /** The key just created (its secret is shown once). */
  createdKey: Signal<ApiKeyRecord | null>;
  keyCreation: Submission;
  /** Creates a chat key bound to this assistant from the form; true when done. */
  createKey(): Promise<boolean>;
  deletion: Submission;
  /** Deletes the assistant; true when done. */
  remove(): Promise<boolean>;
}

export function createAssistantEditorModel(api: ApiClient, id: string): AssistantEditorModel {
  const assistant = loadable(() => api.get<Assistant>(`/assistants/${id}`));
  const forms = signal<Forms | null>(null);
  const subs = Object.fromEntries(SECTIONS.map((s) => [s, submission()])) as Record<Section, Submission>;
  /** The warnings the API returned with the last save (unknown placeholders, provider notes). */
  const warnings = signal<string[]>([]);
  const providers = loadable(() => api.get<ProviderInfo[]>('/providers'));
  const knowledgeBases = loadable(async () => (await api.page<KnowledgeBaseSummary>('/knowledge-bases', { limit: 100 })).items);

  /** The widget texts of a language before the owner's (GET /assistants/:id/texts): the override fields' placeholders. */
  const textDefaults = signal<{ language: string; dir: 'ltr' | 'rtl'; texts: Record<string, string> } | null>(null);
  async function loadTextDefaults(language: string): Promise<void> {
    try {
      const r = await api.get<{ dir: 'ltr' | 'rtl'; defaults: Record<string, string> }>(
        `/assistants/${id}/texts?language=${encodeURIComponent(language)}`,
      );
      textDefaults.value = { language, dir: r.dir, texts: r.defaults };
    } catch {
      // Not a valid tag yet (being typed), or offline: the fields just show no placeholder.
      if (textDefaults.value?.language !== language) textDefaults.value = null;
    }
  }

  /**
   * The default fallback, handoff and welcome messages of the saved language (GET /assistants/:id/texts):
   * a field still showing its default says so, and one that does not can go back to it.
   */
  const defaultMessages = signal<{ language: string; dir: 'ltr' | 'rtl'; messages: Partial<Record<DefaultMessageKey, string>> } | null>(
    null,
  );
  async function loadDefaultMessages(language: string): Promise<void> {
    if (defaultMessages.value?.language === language) return;
    try {
      const r = await api.get<{ dir: 'ltr' | 'rtl'; messages?: Partial<Record<DefaultMessageKey, string>> }>(
        `/assistants/${id}/texts?language=${encodeURIComponent(language)}`,
      );
      defaultMessages.value = { language, dir: r.dir, messages: r.messages ?? {} };
    } catch {
      // Offline or refused: the fields just show no default hint.
    }
  }

  async function load(): Promise<void> {
    await assistant.load();
    if (assistant.data.value) forms.value = formsFrom(assistant.data.value);
  }

  /** Changes one section's form (immutably, so signals notice). */
  function edit<S extends SaveableSection>(section: S, change: Partial<Forms[S]>): void {
    if (!forms.value) return;
    forms.value = { ...forms.value, [section]: { ...forms.value[section], ...change } };
    subs[section].saved.value = false;
  }

  /** Saves one section. On success that section's form is refreshed from the server's record; on failure it keeps what was typed. */
  async function save(section: SaveableSection): Promise<boolean> {
    const current = forms.value;
    if (!current) return false;
    const updated = await subs[section].run(() =>
      api.patch<Assistant>(`/assistants/${id}`, patchFor(section, current[section], assistant.data.value ?? undefined)),
    );
    if (!updated) return false;
    warnings.value = updated.warnings ?? [];
    const before = assistant.data.value ? formsFrom(assistant.data.value) : null;
    assistant.data.value = updated;
    const fresh = formsFrom(updated);
    // The saved section, and every section the user has not touched, show the record as saved: a
    // new language switches the default messages under Fallback and Widget. Unsaved edits stay.
    const next = { ...forms.value! };
    for (const s of SECTIONS) {
      if (s === 'api') continue;
      if (s === section || (before && JSON.stringify(next[s]) === JSON.stringify(before[s])))
        (next as Record<SaveableSection, unknown>)[s] = fresh[s];
    }
    forms.value = next;
    return true;
  }

  // Avatar upload (contract: POST /assistants/:id/avatar, multipart `file`).
  const avatarUpload = submission();
  async function uploadAvatar(file: File): Promise<void> {
    const form = new FormData();
    form.append('file', file);
    const r = await avatarUpload.run(() => api.upload<{ avatarUrl: string }>(`/assistants/${id}/avatar`, form));
    if (r) {
      edit('general', { avatarUrl: r.avatarUrl });
      if (assistant.data.value) assistant.data.value = { ...assistant.data.value, avatarUrl: r.avatarUrl };
    }
  }

  // "Test a message" against the unsaved templates.
  const testMessage = signal('');
  const testResult = signal<{ match: TemplateMatch | null } | null>(null);
  const testing = submission();
  async function testTemplates(): Promise<void> {
    const items = forms.value?.templates.items ?? [];
    testResult.value = null;
    const r = await testing.run(() =>
      api.post<{ match: TemplateMatch | null }>(`/assistants/${id}/templates/test`, {
        message: testMessage.value,
        templates: templatesBody(items),
      }),
    );
    if (r) testResult.value = r;
  }

  // API access: keys bound to this assistant.
  const keys = loadable(async () => {
    const all: ApiKeyRecord[] = [];
    for (let page = 1; page <= 10; page++) {
      const p = await api.page<ApiKeyRecord>('/api-keys', { page, limit: 100 });
      all.push(...p.items);
      if (page >= p.pages) break;
    }
    return all.filter((k) => k.assistantId === id);
  });
  const newKey = { name: signal(''), allowedIps: signal(''), perMinute: signal(''), perDay: signal('') };
  const createdKey = signal<ApiKeyRecord | null>(null);
  const keyCreation = submission();
  async function createKey(): Promise<boolean> {
    const rateLimit: Record<string, number | string> = {};
    if (newKey.perMinute.value.trim()) rateLimit.perMinute = numberOrText(newKey.perMinute.value);
    if (newKey.perDay.value.trim()) rateLimit.perDay = numberOrText(newKey.perDay.value);
    const body = {
      name: newKey.name.value,
      permissions: ['chat'],
      assistantId: id,
      allowedIps: list(newKey.allowedIps.value, /[\s,]+/),
      ...(Object.keys(rateLimit).length ? { rateLimit } : {}),
    };
    const created = await keyCreation.run(() => api.post<ApiKeyRecord>('/api-keys', body));
    if (!created) return false;
    createdKey.value = created;
    newKey.name.value = '';
    newKey.allowedIps.value = '';
    newKey.perMinute.value = '';
    newKey.perDay.value = '';
    await keys.load();
    return true;
  }

  /** A section whose form differs from the saved assistant (its tab shows it). */
  function dirty(section: Section): boolean {
    const a = assistant.data.value;
    const f = forms.value;
    if (!a || !f || section === 'api') return false;
    return JSON.stringify(f[section]) !== JSON.stringify(formsFrom(a)[section]);
  }

  const deletion = submission();
  async function remove(): Promise<boolean> {
    return (await deletion.run(() => api.delete(`/assistants/${id}`))) !== undefined;
  }

  return {
    id,
    assistant,
    forms,
    subs,
    warnings,
    providers,
    knowledgeBases,
    load,
    edit,
    save,
    dirty,
    textDefaults,
    loadTextDefaults,
    defaultMessages,
    loadDefaultMessages,
    avatarUpload,
    uploadAvatar,
    testMessage,
    testResult,
    testing,
    testTemplates,
    keys,
    newKey,
    createdKey,
    keyCreation,
    createKey,
    deletion,
    remove,
  };
}
export type { Loadable, Signal };
