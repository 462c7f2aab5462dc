import { CodeBlock } from '../../ui/common.js';
import { TextArea, TextField } from '../../ui/field.js';
import { SectionForm, type SectionProps } from './section-form.js';

// The exact environment of each connector (docs/deploy-*.md, connectors/src/*/main.ts): the
// owner copies these lines into a file and runs the connector next to Parley.

const common = (origin: string, id: string) => [
  `PARLEY_URL=${origin}`,
  'PARLEY_API_KEY=sk_...            # a key with chat + assistants:read (API keys page)',
  `PARLEY_ASSISTANT_ID=${id}`,
];

export function discordEnv(origin: string, id: string): string {
  return [
    ...common(origin, id),
    'DISCORD_TOKEN=                    # Bot → Reset Token',
    'DISCORD_APPLICATION_ID=           # General Information → Application ID',
    '# DISCORD_MODE=gateway           # or http (then also DISCORD_PUBLIC_KEY, PORT, HOST)',
    '# DISCORD_PUBLIC_KEY=',
    '# DISCORD_GUILD_ID=               # register the command on one server only (appears at once)',
    '# PARLEY_SETTINGS_REFRESH_SECONDS=60',
  ].join('\n');
}
export function slackEnv(origin: string, id: string): string {
  return [
    ...common(origin, id),
    'SLACK_BOT_TOKEN=xoxb-...          # OAuth & Permissions → Bot User OAuth Token',
    'SLACK_SIGNING_SECRET=             # Basic Information → Signing Secret',
    '# SLACK_APP_TOKEN=xapp-...       # set = Socket Mode (no public URL); unset = HTTP on PORT/HOST',
    '# PORT=3002',
    '# PARLEY_SETTINGS_REFRESH_SECONDS=60',
  ].join('\n');
}
export function teamsEnv(origin: string, id: string): string {
  return [
    ...common(origin, id),
    'MICROSOFT_APP_ID=                 # Azure Bot → Configuration (empty = no auth, local testing only)',
    'MICROSOFT_APP_PASSWORD=           # the client secret',
    'MICROSOFT_APP_TENANT_ID=          # single-tenant bots',
    '# PORT=3978',
    '# PARLEY_SETTINGS_REFRESH_SECONDS=60',
  ].join('\n');
}
const run = (name: string) => `set -a; . ./${name}.env; set +a\nnpm run connector:${name}`;

export function ChannelsSection({ m, readOnly }: SectionProps) {
  const f = m.forms.value!.channels;
  const s = m.subs.channels;
  const set = (change: Partial<typeof f>) => m.edit('channels', change);
  const origin = location.origin;
  const slackCommand = f.slackCommand.trim() || '/parley';
  return (
    <>
      <SectionForm
        m={m}
        section="channels"
        readOnly={readOnly}
        title="Channels"
        intro="Settings the Discord, Slack and Teams connectors read from Parley (re-read every minute, no restart). Empty channels = every channel."
      >
        <fieldset>
          <legend>Discord</legend>
          <div class="row">
            <TextField
              label="Discord bot name"
              value={f.discordBotName}
              onValue={(v) => set({ discordBotName: v })}
              error={s.fieldError('discord.botName')}
            />
            <TextField
              label="Discord command"
              hint="Lowercase, e.g. ask → /ask"
              value={f.discordCommand}
              onValue={(v) => set({ discordCommand: v })}
              error={s.fieldError('discord.command')}
            />
          </div>
          <TextArea
            label="Discord description"
            rows={2}
            value={f.discordDescription}
            onValue={(v) => set({ discordDescription: v })}
            error={s.fieldError('discord.description')}
          />
          <TextField
            label="Discord avatar URL"
            inputMode="url"
            value={f.discordAvatarUrl}
            onValue={(v) => set({ discordAvatarUrl: v })}
            error={s.fieldError('discord.avatarUrl')}
          />
          <TextField
            label="Discord channels"
            hint="Channel ids, comma-separated."
            value={f.discordChannels}
            onValue={(v) => set({ discordChannels: v })}
            error={s.fieldError('discord.channels')}
          />
        </fieldset>
        <fieldset>
          <legend>Slack</legend>
          <div class="row">
            <TextField
              label="Slack bot name"
              value={f.slackBotName}
              onValue={(v) => set({ slackBotName: v })}
              error={s.fieldError('slack.botName')}
            />
            <TextField
              label="Slack command"
              hint="A slash command like /parley"
              value={f.slackCommand}
              onValue={(v) => set({ slackCommand: v })}
              error={s.fieldError('slack.command')}
            />
          </div>
          <TextField
            label="Slack channels"
            hint="Channel ids, comma-separated."
            value={f.slackChannels}
            onValue={(v) => set({ slackChannels: v })}
            error={s.fieldError('slack.channels')}
          />
        </fieldset>
        <fieldset>
          <legend>Microsoft Teams</legend>
          <TextField
            label="Teams bot name"
            value={f.teamsBotName}
            onValue={(v) => set({ teamsBotName: v })}
            error={s.fieldError('teams.botName')}
          />
          <TextField
            label="Teams channels"
            hint="Channel ids, comma-separated."
            value={f.teamsChannels}
            onValue={(v) => set({ teamsChannels: v })}
            error={s.fieldError('teams.channels')}
          />
        </fieldset>
      </SectionForm>

      <section class="card" aria-labelledby="setup-discord">
        <h2 id="setup-discord">Set up Discord</h2>
        <ol class="steps">
          <li>
            On the API keys page, create a key with the <code>chat</code> and <code>assistants:read</code> permissions, bound to this
            assistant.
          </li>
          <li>
            In the{' '}
            <a href="https://discord.com/developers/applications" rel="noreferrer" target="_blank">
              Discord Developer Portal
            </a>
            : New Application. Under General Information copy the Application ID (and the Public Key for HTTP mode). Under Bot, Reset Token
            and copy it.
          </li>
          <li>
            Invite the bot (replace APP_ID):{' '}
            <code class="break">
              https://discord.com/oauth2/authorize?client_id=APP_ID&amp;scope=bot+applications.commands&amp;permissions=19456
            </code>
          </li>
          <li>
            Save these lines as <code>discord.env</code>, fill them in, and run the connector next to Parley.
          </li>
        </ol>
        <CodeBlock label="Discord environment" code={discordEnv(origin, m.id)} />
        <CodeBlock label="Discord run command" code={run('discord')} />
      </section>

      <section class="card" aria-labelledby="setup-slack">
        <h2 id="setup-slack">Set up Slack</h2>
        <ol class="steps">
          <li>
            Create a key with <code>chat</code> and <code>assistants:read</code> on the API keys page.
          </li>
          <li>
            At{' '}
            <a href="https://api.slack.com/apps" rel="noreferrer" target="_blank">
              api.slack.com/apps
            </a>
            : Create New App → From an app manifest, with the slash command <code>{slackCommand}</code>, the bot scopes{' '}
            <code>commands</code>, <code>app_mentions:read</code>, <code>chat:write</code> and the <code>app_mention</code> event (request
            URL <code>https://your-connector/slack/events</code>, or Socket Mode with an app-level token with <code>connections:write</code>
            ).
          </li>
          <li>
            Install to Workspace; copy the Bot User OAuth Token and the Signing Secret. Invite the bot into channels:{' '}
            <code>/invite @{f.slackBotName || 'Parley'}</code>.
          </li>
          <li>
            Save these lines as <code>slack.env</code>, fill them in, and run the connector.
          </li>
        </ol>
        <CodeBlock label="Slack environment" code={slackEnv(origin, m.id)} />
        <CodeBlock label="Slack run command" code={run('slack')} />
      </section>

      <section class="card" aria-labelledby="setup-teams">
        <h2 id="setup-teams">Set up Microsoft Teams</h2>
        <ol class="steps">
          <li>
            Create a key with <code>chat</code> and <code>assistants:read</code> on the API keys page.
          </li>
          <li>
            In the Azure portal create an Azure Bot (Single Tenant). Note the Microsoft App ID and the App Tenant ID; Manage Password → New
            client secret.
          </li>
          <li>
            Set the messaging endpoint to <code>https://your-connector/api/messages</code> and add the Microsoft Teams channel.
          </li>
          <li>
            Upload a Teams app package (manifest.json with <code>botId</code> = the App ID, plus two icons) under Apps → Manage your apps.
          </li>
          <li>
            Save these lines as <code>teams.env</code>, fill them in, and run the connector.
          </li>
        </ol>
        <CodeBlock label="Teams environment" code={teamsEnv(origin, m.id)} />
        <CodeBlock label="Teams run command" code={run('teams')} />
      </section>
    </>
  );
}
