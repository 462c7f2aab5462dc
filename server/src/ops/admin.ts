/**
 * `npm run admin -- <command>`: account administration without SQL, on the database the server
 * is configured with (its environment: DATABASE_URL), with or without the server running.
 * docs/api-spec.md §12; docs/deploy-containers.md shows it in a container.
 */
import { email as emailSchema, registerSchema } from '../auth/routes.js';
import type { Storage } from '../storage/port.js';
import { createUser, listOrganizations, PLANS, resetPassword, setPlan } from './accounts.js';
import { CliError, configuredDatabase, runCli } from './cli.js';
import { openForCommand } from './open-database.js';

const USAGE = `Usage: npm run admin -- <command>

Works on the database the server is configured with (DATABASE_URL; default ./data/parley.db),
whether the server is running or not.

Commands:
  reset-password <email>                    sets a new random password (printed once) and ends
                                            every session of that user
  list-orgs                                 every organization: id, plan, members, owners, name
  set-plan <organization id> <plan>         plan: ${PLANS.join(', ')}
  create-user <email> <organization name>   a new user, owner of a new organization (free plan);
                                            its password is printed once
`;

/** The command's arguments, or a one-line usage error (exit 2). */
const COMMANDS = {
  'reset-password': ['<email>'],
  'list-orgs': [],
  'set-plan': ['<organization id>', '<plan>'],
  'create-user': ['<email>', '<organization name>'],
} as const satisfies Record<string, readonly string[]>;
type Command = keyof typeof COMMANDS;
const isCommand = (name: string): name is Command => Object.hasOwn(COMMANDS, name);

function parseEmail(value: string): string {
  const parsed = emailSchema.safeParse(value);
  if (!parsed.success) throw new CliError(`"${value}" is not a valid email address`, 2);
  return parsed.data;
}

function parseOrganizationName(value: string): string {
  const parsed = registerSchema.shape.organizationName.safeParse(value);
  if (!parsed.success) throw new CliError('the organization name must be 1 to 200 characters', 2);
  return parsed.data;
}

async function run(command: Command, args: string[], storage: Storage, out: (line: string) => void): Promise<void> {
  switch (command) {
    case 'reset-password': {
      const { user, password, revokedSessions } = await resetPassword(storage, parseEmail(args[0] ?? ''), Date.now());
      out(`New password for ${user.email} (shown once): ${password}`);
      out(`Sessions revoked: ${revokedSessions} (every device of ${user.email} signs in again)`);
      return;
    }
    case 'list-orgs': {
      const orgs = await listOrganizations(storage);
      if (orgs.length === 0) return out('No organizations.');
      const rows = [
        ['ID', 'PLAN', 'MEMBERS', 'CREATED', 'OWNERS', 'NAME'],
        ...orgs.map((o) => [o.id, o.plan, String(o.members), o.createdAt.slice(0, 10), o.owners.join(',') || '-', o.name]),
      ];
      const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
      for (const r of rows) out(r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  '));
      return;
    }
    case 'set-plan': {
      const { organization, previous } = await setPlan(storage, args[0] ?? '', args[1] ?? '');
      out(`${organization.id} (${organization.name}): plan ${previous} -> ${organization.plan}`);
      out('Running servers apply it to dashboard sessions at once and to API keys within 5 s (their key cache).');
      return;
    }
    case 'create-user': {
      const { user, organization, password } = await createUser(
        storage,
        parseEmail(args[0] ?? ''),
        parseOrganizationName(args[1] ?? ''),
        Date.now(),
      );
      out(`Created ${user.email} (${user.id}), owner of ${organization.name} (${organization.id}, plan ${organization.plan})`);
      out(`Password (shown once): ${password}`);
      return;
    }
  }
}

async function admin(argv: string[], env: NodeJS.ProcessEnv, out: (line: string) => void): Promise<void> {
  const [name, ...args] = argv;
  if (argv.includes('--help') || argv.includes('-h') || name === 'help') return void process.stdout.write(USAGE);
  if (name === undefined) throw new CliError('no command given (npm run admin -- --help)', 2);
  if (!isCommand(name)) throw new CliError(`unknown command "${name}" (npm run admin -- --help)`, 2);
  const expected = COMMANDS[name];
  if (args.length !== expected.length) {
    throw new CliError(`usage: npm run admin -- ${[name, ...expected].join(' ')} (npm run admin -- --help)`, 2);
  }
  const storage = await openForCommand(configuredDatabase(env));
  try {
    await run(name, args, storage, out);
  } finally {
    await storage.close();
  }
}

runCli('admin', (argv) => admin(argv, process.env, (line) => process.stdout.write(`${line}\n`)));
