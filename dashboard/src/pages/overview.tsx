import { useEffect } from 'preact/hooks';
import { api } from '../lib/api.js';
import { useModel } from '../lib/model.js';
import { to } from '../lib/paths.js';
import { me } from '../lib/session.js';
import { ErrorNotice, Loading, PageHeader } from '../ui/common.js';
import { checklist, createOverviewModel } from './overview.model.js';

export default function OverviewPage() {
  const m = useModel(() => createOverviewModel(api));
  useEffect(() => {
    void m.load();
  }, []);
  const f = m.facts.data.value;
  const steps = f ? checklist(f) : [];
  const done = steps.filter((s) => s.done).length;
  // The first step still to do is the one to press; the others stay quiet.
  const next = steps.find((s) => !s.done)?.id;
  return (
    <>
      <PageHeader
        title="Overview"
        description={
          me.value
            ? `Welcome${me.value.user?.name ? `, ${me.value.user.name}` : ''}. ${me.value.organization.name} is on the ${me.value.organization.plan} plan.`
            : undefined
        }
      />
      <ErrorNotice error={m.facts.error.value} onRetry={() => void m.load()} />
      {!f && m.facts.loading.value && <Loading />}
      {f && (
        <>
          <section class="card" aria-labelledby="summary-title">
            <h2 id="summary-title">Summary</h2>
            <dl class="stats">
              <div>
                <dt>Assistants</dt>
                <dd>
                  <a href={to('/assistants')}>{f.assistantTotal}</a>
                </dd>
              </div>
              <div>
                <dt>Knowledge bases</dt>
                <dd>
                  <a href={to('/knowledge')}>{f.knowledgeBaseTotal}</a>
                </dd>
              </div>
              <div>
                <dt>Documents</dt>
                <dd>{f.documents}</dd>
              </div>
            </dl>
          </section>
          <section class="card" aria-labelledby="checklist-title">
            <h2 id="checklist-title">Getting started</h2>
            <p class="muted" id="checklist-progress">
              {done === steps.length ? 'All done: your assistant is live.' : `${done} of ${steps.length} steps done.`}
            </p>
            <progress class="checklist-progress" max={steps.length} value={done} aria-labelledby="checklist-progress" />
            <ol class="checklist">
              {steps.map((s) => (
                <li key={s.id} class={s.done ? 'done' : ''}>
                  <span class="check-mark" aria-hidden="true">
                    {s.done ? '✓' : ''}
                  </span>
                  <div>
                    <h3>
                      {s.title} <span class="visually-hidden">{s.done ? '(done)' : '(to do)'}</span>
                    </h3>
                    <p class="muted">{s.detail}</p>
                  </div>
                  <a class={`button small${s.id === next ? ' primary' : ''}`} href={to(s.href)} aria-label={`${s.action}: ${s.title}`}>
                    {s.action}
                  </a>
                </li>
              ))}
            </ol>
          </section>
        </>
      )}
    </>
  );
}
