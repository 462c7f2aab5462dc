import type { ComponentChildren } from 'preact';
import { useLocation } from 'preact-iso';
import { pendingHandoffs } from '../lib/nav-badges.js';
import { BASE, to } from '../lib/paths.js';
import { me, signOut } from '../lib/session.js';
import { themeChoice, type ThemeChoice } from '../lib/theme.js';

const NAV: ReadonlyArray<{ href: string; label: string; badge?: () => number }> = [
  { href: '/', label: 'Overview' },
  { href: '/assistants', label: 'Assistants' },
  { href: '/playground', label: 'Playground' },
  { href: '/knowledge', label: 'Knowledge' },
  { href: '/conversations', label: 'Conversations' },
  { href: '/handoffs', label: 'Needs a human', badge: () => pendingHandoffs.value },
  { href: '/analytics', label: 'Analytics' },
  { href: '/gaps', label: 'Knowledge gaps' },
  { href: '/api-keys', label: 'API keys' },
  { href: '/webhooks', label: 'Webhooks' },
  { href: '/settings', label: 'Settings' },
];

function isCurrent(path: string, href: string): boolean {
  const full = to(href);
  return href === '/' ? path === `${BASE}/` || path === BASE : path === full || path.startsWith(`${full}/`);
}

export function Layout({ children }: { children: ComponentChildren }) {
  const { path, route } = useLocation();
  const session = me.value;
  return (
    <div class="shell">
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <a class="brand" href={to('/')}>
          Parley
        </a>
        <span class="org" title="Organization">
          {session?.organization.name}
        </span>
        <div class="topbar-actions">
          <label class="theme-picker">
            <span class="visually-hidden">Theme</span>
            <select
              value={themeChoice.value}
              onChange={(e) => {
                themeChoice.value = e.currentTarget.value as ThemeChoice;
              }}
            >
              <option value="system">System theme</option>
              <option value="light">Light</option>
              <option value="dark">Dark</option>
            </select>
          </label>
          <span class="user">
            {session?.user?.name || session?.user?.email}
            {session?.role ? ` · ${session.role}` : ''}
          </span>
          <button
            type="button"
            class="button small"
            onClick={async () => {
              await signOut();
              route(to('/login'));
            }}
          >
            Sign out
          </button>
        </div>
      </header>
      <nav class="sidebar" aria-label="Main">
        <ul>
          {NAV.map((item) => {
            const count = item.badge?.() ?? 0;
            return (
              <li key={item.href}>
                <a href={to(item.href)} aria-current={isCurrent(path, item.href) ? 'page' : undefined}>
                  {item.label}
                  {count > 0 && (
                    <span class="badge" aria-label={`${count} waiting`}>
                      {count}
                    </span>
                  )}
                </a>
              </li>
            );
          })}
        </ul>
      </nav>
      <main id="main" class="content" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
