import { ErrorBoundary, LocationProvider, Route, Router, lazy, useLocation } from 'preact-iso';
import { useEffect } from 'preact/hooks';
import { setUnauthenticatedHandler } from './lib/api.js';
import { startHandoffPolling } from './lib/handoffs.js';
import { BASE, loginUrl } from './lib/paths.js';
import { loadSession, me, sessionState } from './lib/session.js';
import { Layout } from './ui/layout.js';
import { Loading } from './ui/common.js';
import { LoginPage, RegisterPage } from './pages/login.js';

// Every signed-in page is a lazy chunk: the first load carries only the shell and sign-in.
const Overview = lazy(() => import('./pages/overview.js'));
const Assistants = lazy(() => import('./pages/assistants.js'));
const AssistantEditor = lazy(() => import('./pages/assistant-editor.js'));
const Playground = lazy(() => import('./pages/playground.js'));
const KnowledgeBases = lazy(() => import('./pages/knowledge-bases.js'));
const KnowledgeBase = lazy(() => import('./pages/knowledge-base.js'));
const DocumentPage = lazy(() => import('./pages/document.js'));
const ApiKeys = lazy(() => import('./pages/api-keys.js'));
const Webhooks = lazy(() => import('./pages/webhooks.js'));
const Settings = lazy(() => import('./pages/settings.js'));
const Invite = lazy(() => import('./pages/invite.js'));
const Analytics = lazy(() => import('./pages/analytics.js'));
const Conversations = lazy(() => import('./pages/conversations.js'));
const Conversation = lazy(() => import('./pages/conversation.js'));
const Handoffs = lazy(() => import('./pages/handoffs.js'));
const KnowledgeGaps = lazy(() => import('./pages/knowledge-gaps.js'));

/**
 * The page being opened starts loading beside `GET /v1/auth/me` instead of after it: on a
 * cold load the two round trips overlap (first screen interactive, `npm run bench`).
 */
const PRELOAD: ReadonlyArray<[RegExp, { preload(): Promise<unknown> }]> = [
  [/^\/dashboard\/?$/, Overview],
  [/^\/dashboard\/assistants\/?$/, Assistants],
  [/^\/dashboard\/assistants\/./, AssistantEditor],
  [/^\/dashboard\/playground/, Playground],
  [/^\/dashboard\/knowledge\/?$/, KnowledgeBases],
  [/^\/dashboard\/knowledge\/[^/]+\/?$/, KnowledgeBase],
  [/^\/dashboard\/conversations\/?$/, Conversations],
  [/^\/dashboard\/conversations\/./, Conversation],
  [/^\/dashboard\/analytics/, Analytics],
];
if (typeof location !== 'undefined')
  void PRELOAD.find(([re]) => re.test(location.pathname))?.[1]
    .preload()
    .catch(() => undefined);

const PUBLIC_PATHS = [`${BASE}/login`, `${BASE}/register`, `${BASE}/invite/`];
const isPublic = (path: string) => PUBLIC_PATHS.some((p) => path === p || path.startsWith(p));

function NotFound() {
  return (
    <div>
      <h1>Page not found</h1>
      <p>
        <a href={`${BASE}/`}>Back to the overview</a>
      </p>
    </div>
  );
}

function SignedInRoutes() {
  // The "Needs a human" count in the navigation stays live while signed in.
  useEffect(() => startHandoffPolling(), []);
  return (
    <Layout>
      <Router onRouteChange={() => document.getElementById('main')?.focus()}>
        <Route path={`${BASE}/`} component={Overview} />
        <Route path={`${BASE}/assistants`} component={Assistants} />
        <Route path={`${BASE}/assistants/:id/:section?`} component={AssistantEditor} />
        <Route path={`${BASE}/playground/:id?`} component={Playground} />
        <Route path={`${BASE}/knowledge`} component={KnowledgeBases} />
        <Route path={`${BASE}/knowledge/:kbId`} component={KnowledgeBase} />
        <Route path={`${BASE}/knowledge/:kbId/documents/:docId`} component={DocumentPage} />
        <Route path={`${BASE}/api-keys`} component={ApiKeys} />
        <Route path={`${BASE}/webhooks/:id?`} component={Webhooks} />
        <Route path={`${BASE}/settings/:section?`} component={Settings} />
        <Route path={`${BASE}/analytics`} component={Analytics} />
        <Route path={`${BASE}/conversations`} component={Conversations} />
        <Route path={`${BASE}/conversations/:sessionId`} component={Conversation} />
        <Route path={`${BASE}/handoffs`} component={Handoffs} />
        <Route path={`${BASE}/gaps/:gapId?`} component={KnowledgeGaps} />
        <Route default component={NotFound} />
      </Router>
    </Layout>
  );
}

function Gate() {
  const { path, route } = useLocation();
  useEffect(() => {
    // Any 401 (an expired session) sends the user to sign in, keeping what they were doing.
    setUnauthenticatedHandler(() => {
      me.value = null;
      sessionState.value = 'signed-out';
      route(loginUrl(), true);
    });
    if (sessionState.value === 'unknown')
      void loadSession().catch(() => {
        sessionState.value = 'signed-out';
      });
  }, []);
  useEffect(() => {
    if (sessionState.value === 'signed-out' && !isPublic(path)) route(loginUrl(), true);
  }, [sessionState.value, path]);

  if (isPublic(path)) {
    return (
      <Router>
        <Route path={`${BASE}/login`} component={LoginPage} />
        <Route path={`${BASE}/register`} component={RegisterPage} />
        <Route path={`${BASE}/invite/:token`} component={Invite} />
        <Route default component={NotFound} />
      </Router>
    );
  }
  if (sessionState.value !== 'signed-in')
    return (
      <main class="centered">
        <Loading />
      </main>
    );
  return <SignedInRoutes />;
}

export function App() {
  return (
    <LocationProvider scope={BASE}>
      <ErrorBoundary>
        <Gate />
      </ErrorBoundary>
    </LocationProvider>
  );
}
