import { useEffect } from 'preact/hooks';
import { can, me } from '../../lib/session.js';
import { CodeBlock, ErrorNotice, formatDate, Loading } from '../../ui/common.js';
import { TextArea, TextField } from '../../ui/field.js';
import type { AssistantEditorModel } from '../assistant-editor.model.js';

export function curlExample(origin: string, id: string, key = '$PARLEY_API_KEY'): string {
  return `curl -X POST "${origin}/v1/integrations/${id}/chat" \\\n  -H "Authorization: Bearer ${key}" \\\n  -H "Content-Type: application/json" \\\n  -d '{"message": "How do I get started?"}'`;
}

export function ApiAccessSection({ m }: { m: AssistantEditorModel }) {
  const mayManage = can('api_keys:write');
  useEffect(() => {
    if (mayManage) void m.keys.load();
  }, [mayManage]);
  const keys = m.keys.data.value;
  const s = m.keyCreation;
  const plan = me.value?.organization.limits;
  const created = m.createdKey.value;
  return (
    <>
      <section class="card" aria-labelledby="keys-title">
        <h2 id="keys-title">API keys for this assistant</h2>
        <p class="muted">
          A key bound to this assistant sees and acts on it alone.
          {plan ? ` Your plan allows ${plan.perMinute} requests a minute and ${plan.perDay} a day per key; a key may lower them.` : ''}
        </p>
        {!mayManage && (
          <p class="notice" role="status">
            Only admins manage API keys.
          </p>
        )}
        {mayManage && (
          <>
            <ErrorNotice error={m.keys.error.value} onRetry={() => void m.keys.load()} />
            {m.keys.loading.value && !keys && <Loading />}
            {keys &&
              (keys.length === 0 ? (
                <p class="notice" role="status">
                  No key is bound to this assistant yet.
                </p>
              ) : (
                <div class="table-wrap">
                  <table>
                    <caption class="visually-hidden">Keys bound to this assistant</caption>
                    <thead>
                      <tr>
                        <th scope="col">Name</th>
                        <th scope="col">Key</th>
                        <th scope="col">Permissions</th>
                        <th scope="col">Rate limits</th>
                        <th scope="col">Allowed IPs</th>
                        <th scope="col">Last used</th>
                        <th scope="col">Expires</th>
                      </tr>
                    </thead>
                    <tbody>
                      {keys.map((k) => (
                        <tr key={k.id}>
                          <td>{k.name}</td>
                          <td>
                            <code>sk_…{k.last4}</code>
                          </td>
                          <td>{k.permissions.join(', ')}</td>
                          <td>
                            {k.rateLimit?.perMinute ?? plan?.perMinute ?? 'plan'}/min · {k.rateLimit?.perDay ?? plan?.perDay ?? 'plan'}/day
                          </td>
                          <td>{k.allowedIps.length ? k.allowedIps.join(', ') : 'Any'}</td>
                          <td>{formatDate(k.lastUsedAt)}</td>
                          <td>{k.expiresAt ? formatDate(k.expiresAt) : 'Never'}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              ))}
          </>
        )}
      </section>

      {created?.key && (
        <section class="card notice-card" aria-labelledby="new-key-title">
          <h2 id="new-key-title">Your new key</h2>
          <p class="notice notice-warn" role="alert">
            Copy it now: this is the only time Parley shows the full key.
          </p>
          <CodeBlock label="New API key" code={created.key} />
          <button
            type="button"
            class="button small"
            onClick={() => {
              m.createdKey.value = null;
            }}
          >
            I have copied it
          </button>
        </section>
      )}

      {mayManage && (
        <form
          class="card"
          aria-labelledby="create-key-title"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void m.createKey();
          }}
        >
          <h2 id="create-key-title">Create a key for this assistant</h2>
          <p class="muted">
            Permission: <code>chat</code> only, bound to this assistant.
          </p>
          {s.error.value && !Object.keys(s.error.value.fields).length && (
            <ErrorNotice error={s.error.value} onRetry={() => void m.createKey()} />
          )}
          <TextField
            label="Key name"
            placeholder="Website backend"
            value={m.newKey.name.value}
            onValue={(v) => {
              m.newKey.name.value = v;
            }}
            error={s.fieldError('name')}
          />
          <div class="row">
            <TextField
              label="Requests per minute"
              inputMode="numeric"
              hint="Empty = the plan's limit"
              value={m.newKey.perMinute.value}
              onValue={(v) => {
                m.newKey.perMinute.value = v;
              }}
              error={s.fieldError('rateLimit.perMinute') ?? s.fieldError('rateLimit')}
            />
            <TextField
              label="Requests per day"
              inputMode="numeric"
              hint="Empty = the plan's limit"
              value={m.newKey.perDay.value}
              onValue={(v) => {
                m.newKey.perDay.value = v;
              }}
              error={s.fieldError('rateLimit.perDay')}
            />
          </div>
          <TextArea
            label="Allowed IPs"
            rows={2}
            placeholder="203.0.113.7, 2001:db8::/32"
            hint="Addresses or CIDR blocks, one per line or comma-separated. Empty = any address."
            value={m.newKey.allowedIps.value}
            onValue={(v) => {
              m.newKey.allowedIps.value = v;
            }}
            error={s.fieldError('allowedIps')}
          />
          <button type="submit" class="button primary" disabled={s.busy.value}>
            {s.busy.value ? 'Creating…' : 'Create key'}
          </button>
        </form>
      )}

      <section class="card" aria-labelledby="curl-title">
        <h2 id="curl-title">Call the chat API</h2>
        <CodeBlock label="curl example" code={curlExample(location.origin, m.id)} />
        <p class="hint">
          Add <code>"stream": true</code> for Server-Sent Events, and <code>"sessionId"</code> to continue a conversation.
        </p>
      </section>
    </>
  );
}
