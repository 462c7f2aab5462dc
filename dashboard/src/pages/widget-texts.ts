// The widget's own texts the owner may reword (`widget.strings`, docs/api-spec.md §12), as the server names
// them (server/src/i18n/texts.ts WIDGET_TEXT_KEYS), with what each one is for.

export const WIDGET_TEXT_FIELDS = [
  { key: 'placeholder', label: 'Message box placeholder' },
  { key: 'send', label: 'Send button' },
  { key: 'open', label: 'Launcher (for screen readers)' },
  { key: 'close', label: 'Close button' },
  { key: 'newConversation', label: 'New conversation button' },
  { key: 'dialog', label: 'Chat window (for screen readers)' },
  { key: 'subtitle', label: 'Subtitle under the name' },
  { key: 'inputLabel', label: 'Message box (for screen readers)' },
  { key: 'wasHelpful', label: 'Feedback question' },
  { key: 'helpful', label: 'Helpful button' },
  { key: 'notHelpful', label: 'Not helpful button' },
  { key: 'sources', label: 'Sources' },
  { key: 'suggestions', label: 'Suggestions' },
  { key: 'supportTeam', label: "Label of a team member's reply" },
  { key: 'needHelp', label: 'Offer of more help' },
  { key: 'talkToHuman', label: 'Talk to a human button' },
  { key: 'contactPage', label: 'Contact page link' },
  { key: 'handoffRequested', label: 'Confirmation of a handoff request' },
  { key: 'retry', label: 'Try again button' },
  { key: 'offline', label: 'Error: no connection' },
  { key: 'rateLimited', label: 'Error: too many messages' },
  { key: 'error', label: 'Error: anything else' },
  { key: 'forbidden', label: 'Error: site not allowed' },
  { key: 'notFound', label: 'Error: chat not found' },
  { key: 'invalid', label: 'Error: message refused' },
] as const satisfies ReadonlyArray<{ key: string; label: string }>;

export type WidgetTextForm = Record<string, string>;

/** The form: every key, '' where the owner keeps the language's default. */
export function widgetTextForm(saved: Record<string, string> | undefined): WidgetTextForm {
  return Object.fromEntries(WIDGET_TEXT_FIELDS.map(({ key }) => [key, saved?.[key] ?? '']));
}

/** The PATCH value: a typed text, or null to drop an override (JSON Merge Patch) and fall back to the default. */
export function widgetTextPatch(form: WidgetTextForm): Record<string, string | null> {
  return Object.fromEntries(WIDGET_TEXT_FIELDS.map(({ key }) => [key, form[key]?.trim() || null]));
}

/** Only the owner's own texts: what the live preview lays over the language's. */
export function widgetTextOverrides(form: WidgetTextForm): Record<string, string> {
  return Object.fromEntries(
    Object.entries(form)
      .filter(([, v]) => v.trim() !== '')
      .map(([k, v]) => [k, v.trim()]),
  );
}
