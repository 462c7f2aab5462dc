import { z } from 'zod';
import { DEFAULT_CONFIDENCE_THRESHOLD } from '../answer/confidence.js';
import { templateRegexProblem } from '../answer/templates.js';
import { MAX_WIDGET_TEXT_LENGTH, WIDGET_TEXT_KEYS, type WidgetTextKey } from '../i18n/texts.js';

const httpUrl = z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).max(2048);

/** `https://shop.example.com:8443` exactly: scheme, host and optional port, nothing more. */
const origin = z
  .string()
  .max(300)
  .refine(
    (v) => {
      try {
        const u = new URL(v);
        return (u.protocol === 'http:' || u.protocol === 'https:') && u.origin === v.replace(/\/$/, '');
      } catch {
        return false;
      }
    },
    { message: 'must be an origin like https://www.example.com (scheme, host and optional port)' },
  )
  .transform((v) => v.replace(/\/$/, ''));

export const DEFAULT_FALLBACK_MESSAGE = "I'm sorry, I don't know the answer to that yet.";
export const DEFAULT_HANDOFF_MESSAGE = 'Would you like to talk to a person? Our team can take over this conversation.';

export const ASSISTANT_TYPES = ['web', 'api', 'discord', 'slack', 'teams'] as const;

export const DEFAULT_SYSTEM_PROMPT = [
  "You are {{assistant_name}}, a helpful assistant. Answer the user's question using only the knowledge below.",
  'If the knowledge does not contain the answer, say that you do not know. Cite passages as [1], [2].',
  '',
  'Knowledge:',
  '{{knowledge}}',
].join('\n');

const hexOrCssColor = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(
    /^(#[0-9a-fA-F]{3,8}|rgba?\([\d\s.,%]+\)|hsla?\([\d\s.,%deg]+\)|[a-zA-Z]{3,20})$/,
    'must be a CSS colour (#rrggbb, rgb(), hsl() or a name)',
  );

/** A BCP 47 language tag (docs/api-spec.md §12): the language an assistant answers in. */
export const languageTagSchema = z
  .string()
  .trim()
  .regex(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/, 'must be a language tag like "en" or "pt-BR"');

/** The owner's own widget texts (docs/api-spec.md §12), each over the language's default; only known keys. */
const widgetStringsSchema = z.strictObject(
  Object.fromEntries(
    WIDGET_TEXT_KEYS.map((key) => [
      key,
      z.string().trim().min(1, "must not be empty (leave it out for the language's default)").max(MAX_WIDGET_TEXT_LENGTH).optional(),
    ]),
  ) as Record<WidgetTextKey, z.ZodOptional<z.ZodString>>,
);

const channels = z.array(z.string().trim().min(1).max(100)).max(200).default([]);

export const templateSchema = z
  .strictObject({
    id: z.string().min(1).max(64).optional(),
    trigger: z.string().trim().min(1).max(500),
    match: z.enum(['exact', 'contains', 'regex']).default('contains'),
    response: z.string().min(1).max(20_000),
  })
  .superRefine((t, ctx) => {
    // Regex triggers run on RE2 (answer/templates.ts): linear time, so no backreferences or lookaround,
    // and bounded cost (counted repetitions, program size), so a saved pattern cannot stall chat.
    const problem = t.match === 'regex' ? templateRegexProblem(t.trigger) : null;
    if (problem) ctx.addIssue({ code: 'custom', path: ['trigger'], message: problem });
  });

/** Every configurable field of an assistant, with the defaults of docs/api-spec.md §6. */
export const assistantConfigSchema = z.strictObject({
  name: z.string().trim().min(1).max(100),
  description: z.string().max(2000).nullable().default(null),
  avatarUrl: httpUrl.nullable().default(null),
  model: z
    .strictObject({
      provider: z.enum(['extractive', 'openai', 'anthropic']).default('extractive'),
      name: z.string().trim().min(1).max(200).optional(),
      temperature: z.number().min(0).max(2).optional(),
      baseUrl: httpUrl.optional(),
    })
    .default({ provider: 'extractive' }),
  language: languageTagSchema.default('en'),
  historyLimit: z.int().min(0).max(50).default(10),
  maxResponseLength: z.int().min(100).max(20_000).default(2000),
  systemPrompt: z.string().min(1).max(20_000).default(DEFAULT_SYSTEM_PROMPT),
  variables: z
    .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'variable names are letters, digits and _'), z.string().max(2000))
    .default({})
    .refine((v) => Object.keys(v).length <= 100, { message: 'at most 100 variables' }),
  knowledgeBases: z
    .array(z.strictObject({ id: z.string().min(1).max(64), priority: z.int().min(1).max(10).default(5) }))
    .max(50)
    .default([])
    .refine((list) => new Set(list.map((k) => k.id)).size === list.length, { message: 'a knowledge base may be connected once' }),
  templates: z.array(templateSchema).max(200).default([]),
  fallback: z
    .strictObject({
      message: z.string().min(1).max(2000).default(DEFAULT_FALLBACK_MESSAGE),
      handoff: z
        .strictObject({
          enabled: z.boolean().default(false),
          message: z.string().min(1).max(2000).default(DEFAULT_HANDOFF_MESSAGE),
          url: httpUrl.nullable().optional(),
          email: z.email().nullable().optional(),
        })
        .default({ enabled: false, message: DEFAULT_HANDOFF_MESSAGE }),
      suggestions: z.boolean().default(true),
      collectFeedback: z.boolean().default(true),
    })
    .default({
      message: DEFAULT_FALLBACK_MESSAGE,
      handoff: { enabled: false, message: DEFAULT_HANDOFF_MESSAGE },
      suggestions: true,
      collectFeedback: true,
    }),
  confidenceThreshold: z.number().min(0).max(1).default(DEFAULT_CONFIDENCE_THRESHOLD),
  widget: z
    .strictObject({
      theme: z.enum(['light', 'dark', 'custom']).default('light'),
      colors: z.strictObject({ primary: hexOrCssColor, background: hexOrCssColor, text: hexOrCssColor }).nullable().default(null),
      position: z.enum(['bottom-right', 'bottom-left', 'top-right', 'top-left']).default('bottom-right'),
      initialState: z.enum(['collapsed', 'expanded']).default('collapsed'),
      welcomeMessage: z.string().max(1000).default('Hi! How can I help you today?'),
      iconUrl: httpUrl.nullable().default(null),
      allowedOrigins: z.array(origin).max(100).default([]),
      strings: widgetStringsSchema.default({}),
    })
    .refine((w) => w.theme !== 'custom' || w.colors !== null, {
      message: 'theme "custom" needs colors {primary, background, text}',
      path: ['colors'],
    })
    .default({
      theme: 'light',
      colors: null,
      position: 'bottom-right',
      initialState: 'collapsed',
      welcomeMessage: 'Hi! How can I help you today?',
      iconUrl: null,
      allowedOrigins: [],
      strings: {},
    }),
  discord: z
    .strictObject({
      botName: z.string().trim().min(1).max(80).nullable().default(null),
      description: z.string().max(400).default(''),
      avatarUrl: httpUrl.nullable().default(null),
      command: z
        .string()
        .regex(/^[-_\p{Ll}\p{N}]{1,32}$/u, 'must be a Discord command name: 1-32 lowercase letters, digits, - or _')
        .default('ask'),
      channels,
    })
    .default({ botName: null, description: '', avatarUrl: null, command: 'ask', channels: [] }),
  slack: z
    .strictObject({
      botName: z.string().trim().min(1).max(80).nullable().default(null),
      command: z
        .string()
        .regex(/^\/[a-z0-9_-]{1,31}$/, 'must be a slash command like /parley')
        .default('/parley'),
      channels,
    })
    .default({ botName: null, command: '/parley', channels: [] }),
  teams: z
    .strictObject({
      botName: z.string().trim().min(1).max(80).nullable().default(null),
      channels,
    })
    .default({ botName: null, channels: [] }),
});

export const createAssistantSchema = assistantConfigSchema.extend({ type: z.enum(ASSISTANT_TYPES) });

export type AssistantConfig = z.infer<typeof assistantConfigSchema>;
export type AssistantType = (typeof ASSISTANT_TYPES)[number];
export type Template = AssistantConfig['templates'][number];
