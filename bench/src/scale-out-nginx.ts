import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Debian's nginx (nginx-light); the bench starts its own instance and never touches /etc/nginx. */
export const NGINX_BIN = '/usr/sbin/nginx';

export interface NginxFront {
  pid: number;
  stop(): Promise<void>;
}

/**
 * nginx as in docs/deploy-scale-out.md: one worker (this machine has 2 cores), keepalive to the
 * upstreams (HTTP/1.1 and an empty Connection header, or every proxied request opens a new TCP
 * connection to Parley). Every path it writes (pid, error log, temp files) is inside `dir`, so it
 * runs beside any system nginx without root's files. `listen` maps a port to its upstream ports.
 */
export function nginxConfig(dir: string, listen: Array<{ port: number; upstream: number[] }>): string {
  const at = (name: string) => path.join(dir, name);
  // When run as root the workers would otherwise switch to `nobody`, which cannot enter the
  // bench's private temp dir; as another user nginx ignores the directive (a warning).
  const user = os.userInfo().username;
  const blocks = listen
    .map(
      ({ port, upstream }, i) => `
  upstream parley_${i} {
${upstream.map((p) => `    server 127.0.0.1:${p};`).join('\n')}
    keepalive 32;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://parley_${i};
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    }
  }`,
    )
    .join('\n');
  return `worker_processes 1;
daemon off;
user ${user};
pid ${at('nginx.pid')};
error_log ${at('error.log')} warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${at('body')};
  proxy_temp_path ${at('proxy')};
  fastcgi_temp_path ${at('fastcgi')};
  scgi_temp_path ${at('scgi')};
  uwsgi_temp_path ${at('uwsgi')};
${blocks}
}
`;
}

/**
 * Writes the config into `dir` and runs `nginx -c <conf> -p <dir>` in the foreground (daemon
 * off), so its pid is the child's and stopping it is a SIGQUIT to that pid (graceful: in-flight
 * requests finish). Resolves once every listen port accepts a connection.
 */
/** Fails at once, with the package to install, where Debian's nginx is missing (before minutes of seeding). */
export function requireNginx(): void {
  if (!fs.existsSync(NGINX_BIN))
    throw new Error(`the scale-out bench needs Debian's nginx (${NGINX_BIN} not found): apt-get install -y nginx-light`);
}

export async function startNginx(dir: string, listen: Array<{ port: number; upstream: number[] }>): Promise<NginxFront> {
  requireNginx();
  fs.mkdirSync(dir, { recursive: true });
  const conf = path.join(dir, 'nginx.conf');
  fs.writeFileSync(conf, nginxConfig(dir, listen));
  const child: ChildProcess = spawn(NGINX_BIN, ['-c', conf, '-p', `${dir}/`], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  for (const { port } of listen) {
    await waitFor(async () => {
      if (child.exitCode !== null)
        throw new Error(`nginx exited (${child.exitCode}): ${stderr.trim()} ${readIfExists(path.join(dir, 'error.log'))}`);
      return await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
    }, `nginx on port ${port}`);
  }
  return {
    pid: child.pid as number,
    async stop() {
      if (child.exitCode === null) child.kill('SIGQUIT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

function readIfExists(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}

/** Polls `ready` every 100 ms until it is true; throws what it throws, or after `timeoutMs`. */
export async function waitFor(ready: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
