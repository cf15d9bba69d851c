import { readFileSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import type { CliContext } from './context.js';
import type { ServeOptions } from './commands/serve.js';
import type { OpenApiOptions } from './commands/openapi.js';
import type { ImportOptions } from './commands/import.js';
import type { JobsListOptions } from './commands/jobs.js';
import type { RatelimitClearOptions } from './commands/ratelimit.js';
import type { AdminLoginOptions } from './commands/admin/login.js';
import type { EventsListOptions } from './commands/admin/events-list.js';
import type { UsersListOptions } from './commands/admin/users-list.js';
import type { UsersCreateOptions } from './commands/admin/users-create.js';
import type { UsersUpdateOptions } from './commands/admin/users-update.js';
import type { GroupsMembersOptions } from './commands/admin/groups-members.js';
import type { AccessCheckOptions } from './commands/admin/access-check.js';
import type { ServerOptions } from './admin/server-url.js';
import { CliError } from './output.js';

type JsonServerOptions = ServerOptions & { json?: boolean };

/**
 * Every command of the `idp` binary and its options, in one table. Each
 * action is a thin parser around a function in ./commands/ that returns the
 * exit code and writes through ctx.output. Command modules are imported
 * when their command runs: `idp validate` must not pay for loading hapi and knex.
 */
export function buildProgram(ctx: CliContext, setExitCode: (code: number) => void): Command {
  const program = new Command('idp')
    .description('A CLI-driven GitOps identity server (OpenID Connect provider)')
    .version(packageVersion(), '-v, --version', 'print the version of idp')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => ctx.output.out(s.trimEnd()),
      writeErr: (s) => ctx.output.err(s.trimEnd()),
    })
    .showHelpAfterError(false);

  const run = (fn: () => Promise<number>) => async () => setExitCode(await fn());
  const configOption = () => new Option('-c, --config <file>', 'config file (default: $IDP_CONFIG, else ./idp.yaml)');

  program
    .command('validate')
    .description('check the config file: every problem with file:line:column (exit 0 valid, 1 invalid)')
    .addOption(configOption())
    .option('--format <format>', 'text | json | github (workflow annotations)', 'text')
    .action((opts: { config?: string; format?: string }) =>
      run(async () => (await import('./commands/validate.js')).runValidate(ctx, opts))(),
    );

  program
    .command('diff')
    .description('show what apply would change (exit 2 with --exit-code when changes are pending)')
    .addOption(configOption())
    .option('--format <format>', 'text | json', 'text')
    .option('--exit-code', 'exit 2 when changes are pending, 0 when none')
    .action((opts: { config?: string; format?: string; exitCode?: boolean }) =>
      run(async () => (await import('./commands/diff.js')).runDiff(ctx, opts))(),
    );

  program
    .command('apply')
    .description('reconcile the database with the config in one transaction')
    .addOption(configOption())
    .option('--dry-run', 'print the plan, change nothing')
    .action((opts: { config?: string; dryRun?: boolean }) =>
      run(async () => (await import('./commands/apply.js')).runApply(ctx, opts))(),
    );

  program
    .command('hash-password')
    .description('read a password on stdin (or a hidden prompt) and print its argon2id hash for password_hash')
    .action(() => run(async () => (await import('./commands/hash-password.js')).runHashPassword(ctx))());

  program
    .command('serve')
    .description('migrate, apply the config and run the HTTP server; SIGHUP reloads the config')
    .addOption(configOption())
    .option('--host <host>', 'listen address (default: server.host)')
    .option('--port <port>', 'listen port; 0 picks a free one (default: server.port)')
    .option('--no-apply', 'do not apply the config, on start or on reload')
    .option('--watch', 'reload the config when the file changes (SIGHUP reloads it in any case)')
    .action((opts: ServeOptions) => {
      // `kill -HUP "$(pidof idp)"` (README) must find the server, not every node process. Only the
      // server takes the name: a SIGHUP meant for it would end `idp admin events list --follow`.
      // Linux also sets the kernel's 15-byte comm from it, which pidof and top read.
      process.title = 'idp';
      return run(async () => (await import('./commands/serve.js')).runServe(ctx, opts))();
    });

  program
    .command('import')
    .description(
      'create database-managed users from a Keycloak realm export or an Auth0 export, with their password hashes and authenticator apps',
    )
    .argument('<source>', 'keycloak | auth0')
    .argument('<files...>', 'the export: a realm export JSON (Keycloak), NDJSON or a JSON array of users (Auth0)')
    .addOption(configOption())
    .option('--dry-run', 'print who would be created and who skipped, and why; write nothing')
    .action((source: string, files: string[], opts: ImportOptions) =>
      run(async () => (await import('./commands/import.js')).runImport(ctx, source, files, opts))(),
    );

  program
    .command('openapi')
    .description('print the OpenAPI 3.1 document')
    .addOption(configOption())
    .option('-o, --output <file>', 'write to a file instead of stdout')
    .option('--defaults', 'use the built-in default config (what npm run build ships)')
    .action((opts: OpenApiOptions) => run(async () => (await import('./commands/openapi.js')).runOpenApi(ctx, opts))());

  program
    .command('migrate')
    .description('run database migrations (serve migrates on start)')
    .argument('[action]', 'up | status', 'up')
    .addOption(configOption())
    .action((action: string, opts: { config?: string }) =>
      run(async () => (await import('./commands/migrate.js')).runMigrate(ctx, action, opts))(),
    );

  program
    .command('backup')
    .description("write one consistent snapshot of the database to a gzip'd JSON-lines file (docs/operations.md)")
    .requiredOption('-o, --output <file>', 'the backup file to write (replaced only once complete; mode 0600)')
    .addOption(configOption())
    .action((opts: { config?: string; output: string }) =>
      run(async () => (await import('./commands/backup.js')).runBackup(ctx, opts))(),
    );

  program
    .command('restore')
    .description('load a backup into an empty database of either engine, in one transaction (docs/operations.md)')
    .argument('<file>', 'the backup file (from idp backup)')
    .addOption(configOption())
    .action((file: string, opts: { config?: string }) =>
      run(async () => (await import('./commands/restore.js')).runRestore(ctx, file, opts))(),
    );

  program
    .command('keys')
    .description(
      'list the signing keys, or rotate to new ones, one per algorithm (old keys stay published until their tokens expire)',
    )
    .argument('<action>', 'list | rotate')
    .addOption(configOption())
    .option('--json', 'machine-readable output (list)')
    .action((action: string, opts: { config?: string; json?: boolean }) =>
      run(async () => (await import('./commands/keys.js')).runKeys(ctx, action, opts))(),
    );

  program
    .command('ratelimit')
    .description('clear the login rate limit of a client address or an account, in the database (no server needed)')
    .argument('<action>', 'clear')
    .addOption(configOption())
    .option('--address <address>', 'the client address (IPv4 or IPv6) whose failed attempts to forget')
    .option('--account <email>', 'the account (e-mail) whose failed attempts to forget')
    .action((action: string, opts: RatelimitClearOptions) =>
      run(async () => {
        if (action !== 'clear') throw new CliError(`unknown ratelimit action "${action}" (expected clear)`, 2);
        return (await import('./commands/ratelimit.js')).runRatelimitClear(ctx, opts);
      })(),
    );

  const jobs = program.command('jobs').description('background jobs and scheduled jobs (scheduler)');
  jobs
    .command('list')
    .description('list the newest background jobs and the count per state')
    .addOption(configOption())
    .option('--state <state>', 'pending | running | succeeded | failed')
    .option('--limit <n>', 'how many jobs (1..10000)', '50')
    .option('--json', 'machine-readable output')
    .action((opts: JobsListOptions) => run(async () => (await import('./commands/jobs.js')).runJobsList(ctx, opts))());
  jobs
    .command('run')
    .description('run a scheduled job once, now, in this process (e.g. cleanup)')
    .argument('<name>', 'the scheduled job: cleanup')
    .addOption(configOption())
    .option('--json', 'machine-readable output')
    .action((name: string, opts: { config?: string; json?: boolean }) =>
      run(async () => (await import('./commands/jobs.js')).runJobsRun(ctx, name, opts))(),
    );

  program
    .command('terms')
    .description('terms of service acceptance')
    .command('status')
    .description('per term, at its current version: users who accepted it and users who have still to')
    .addOption(configOption())
    .option('--id <id>', 'only this term')
    .option('--json', 'machine-readable output')
    .action((opts: { config?: string; id?: string; json?: boolean }) =>
      run(async () => (await import('./commands/terms.js')).runTermsStatus(ctx, opts))(),
    );

  addAdminCommands(program, ctx, run);

  return program;
}

/**
 * `idp admin …` (docs/cli-admin.md): a terminal client of the admin API. Every
 * subcommand maps an API error to one `CODE: message` line and exit code 1.
 */
function addAdminCommands(
  program: Command,
  ctx: CliContext,
  run: (fn: () => Promise<number>) => () => Promise<void>,
): void {
  const admin = program
    .command('admin')
    .description('manage users, group memberships and access through the admin API of a running server');
  const api = (fn: () => Promise<number>) =>
    run(async () => (await import('./admin/run-admin-command.js')).runAdminCommand(ctx, fn))();
  const urlOption = () =>
    new Option('--url <url>', 'server address instead of the one logged in to (default: $IDP_URL)');
  const jsonOption = () => new Option('--json', "print the API's JSON answer");
  // Declared only to be refused with a clear message: passwords come from stdin or a prompt.
  const passwordOption = () => new Option('--password <password>').hideHelp();

  admin
    .command('login')
    .description('sign in and keep the session in $XDG_CONFIG_HOME/idp/credentials.json')
    .addOption(
      new Option('--url <url>', 'server address, e.g. http://localhost:8080 (default: $IDP_URL, else the last one)'),
    )
    .requiredOption('--email <email>', "the admin's e-mail")
    .option('--password-stdin', 'read the password from stdin instead of a hidden prompt')
    .option(
      '--code <code>',
      "for an account with a second factor: the authenticator app's code or a recovery code (default: a hidden prompt)",
    )
    .addOption(passwordOption())
    .addOption(jsonOption())
    .action((opts: AdminLoginOptions) =>
      api(async () => (await import('./commands/admin/login.js')).runAdminLogin(ctx, opts)),
    );

  admin
    .command('logout')
    .description('end the session on the server and forget it here')
    .action(() => api(async () => (await import('./commands/admin/logout.js')).runAdminLogout(ctx)));

  admin
    .command('me')
    .description('show the signed-in admin')
    .addOption(urlOption())
    .addOption(jsonOption())
    .action((opts: JsonServerOptions) =>
      api(async () => (await import('./commands/admin/me.js')).runAdminMe(ctx, opts)),
    );

  const events = admin.command('events').description('read the audit event log');

  events
    .command('list')
    .description('list audit events, newest first, 20 per page by default')
    .option('--type <type>', 'only events of the type (for example sign_in.failed)')
    .option('--actor <actor>', 'only events by the actor (a sub, or config)')
    .option('--subject <subject>', 'only events about the subject')
    .option('--since <time>', 'only events at or after the ISO 8601 time')
    .option('--until <time>', 'only events before the ISO 8601 time')
    .option('--page <n>', 'page number, from 1', positiveInteger)
    .option('--page-size <n>', 'events per page, 1..100 (default 20)', positiveInteger)
    .option('--follow', 'keep printing new events as they happen, oldest first, until Ctrl-C')
    .option('--interval <seconds>', 'seconds between polls under --follow (default 2)', positiveInteger)
    .addOption(urlOption())
    .addOption(jsonOption())
    .action((opts: EventsListOptions) =>
      api(async () => (await import('./commands/admin/events-list.js')).runEventsList(ctx, opts)),
    );

  const users = admin
    .command('users')
    .description(
      'list, show, create, update, delete, restore and unlock users, show their groups, and reset their second factors',
    );

  users
    .command('list')
    .description('list users, 20 per page by default')
    .option('--query <text>', 'only users whose e-mail or sub contains the text (case-insensitive)')
    .option('--page <n>', 'page number, from 1', positiveInteger)
    .option('--page-size <n>', 'users per page, 1..100 (default 20)', positiveInteger)
    .option('--include-deleted', 'also list soft-deleted users')
    .addOption(new Option('--managed-by <source>', 'only users managed by').choices(['database', 'config']))
    .addOption(new Option('--role <role>', 'only users with the role').choices(['user', 'admin']))
    .addOption(urlOption())
    .addOption(jsonOption())
    .action((opts: UsersListOptions) =>
      api(async () => (await import('./commands/admin/users-list.js')).runUsersList(ctx, opts)),
    );

  users
    .command('get')
    .description('show one user')
    .argument('<user>', "the user's sub or e-mail")
    .addOption(urlOption())
    .addOption(jsonOption())
    .action((user: string, opts: JsonServerOptions) =>
      api(async () => (await import('./commands/admin/users-get.js')).runUsersGet(ctx, user, opts)),
    );

  users
    .command('create')
    .description('create a database-managed user (password from a hidden prompt or --password-stdin)')
    .requiredOption('--email <email>', "the new user's e-mail")
    .addOption(new Option('--role <role>', 'role (default: user)').choices(['user', 'admin']))
    .option('--email-verified', 'the e-mail is verified')
    .option('--no-email-verified', 'the e-mail is not verified (the default)')
    .option('--password-stdin', 'read the password from stdin instead of a hidden prompt')
    .addOption(passwordOption())
    .addOption(urlOption())
    .addOption(jsonOption())
    .action((opts: UsersCreateOptions) =>
      api(async () => (await import('./commands/admin/users-create.js')).runUsersCreate(ctx, opts)),
    );

  users
    .command('update')
    .description('change the e-mail, role or verification of a database-managed user')
    .argument('<user>', "the user's sub or e-mail")
    .option('--email <email>', 'new e-mail')
    .addOption(new Option('--role <role>', 'new role').choices(['user', 'admin']))
    .option('--email-verified', 'mark the e-mail as verified')
    .option('--no-email-verified', 'mark the e-mail as not verified')
    .addOption(urlOption())
    .addOption(jsonOption())
    .action((user: string, opts: UsersUpdateOptions) =>
      api(async () => (await import('./commands/admin/users-update.js')).runUsersUpdate(ctx, user, opts)),
    );

  users
    .command('delete')
    .description('soft-delete a database-managed user and end its sessions')
    .argument('<user>', "the user's sub or e-mail")
    .addOption(urlOption())
    .addOption(jsonOption())
    .action((user: string, opts: JsonServerOptions) =>
      api(async () => (await import('./commands/admin/users-delete.js')).runUsersDelete(ctx, user, opts)),
    );

  users
    .command('restore')
    .description('undo the deletion of a database-managed user within account_deletion.grace_period_days')
    .argument('<user>', "the user's sub or e-mail")
    .addOption(urlOption())
    .addOption(jsonOption())
    .action((user: string, opts: JsonServerOptions) =>
      api(async () => (await import('./commands/admin/users-restore.js')).runUsersRestore(ctx, user, opts)),
    );

  users
    .command('unlock')
    .description('clear the failed sign-in attempts that block an account (login rate limit)')
    .argument('<user>', "the user's sub or e-mail")
    .addOption(urlOption())
    .action((user: string, opts: ServerOptions) =>
      api(async () => (await import('./commands/admin/users-unlock.js')).runUsersUnlock(ctx, user, opts)),
    );

  users
    .command('groups')
    .description("list a user's groups, with the source of each membership (config, database, upstream)")
    .argument('<user>', "the user's sub or e-mail")
    .addOption(urlOption())
    .addOption(jsonOption())
    .action((user: string, opts: JsonServerOptions) =>
      api(async () => (await import('./commands/admin/users-groups.js')).runUsersGroups(ctx, user, opts)),
    );

  users
    .command('reset-second-factors')
    .description("remove a user's authenticator app, recovery codes and passkeys, and end its sessions (a lost device)")
    .argument('<user>', "the user's sub or e-mail")
    .addOption(urlOption())
    .addOption(jsonOption())
    .action((user: string, opts: JsonServerOptions) =>
      api(async () =>
        (await import('./commands/admin/users-reset-second-factors.js')).runUsersResetSecondFactors(ctx, user, opts),
      ),
    );

  const groups = admin
    .command('groups')
    .description('list groups and their members; add database-managed users to groups and remove them');

  groups
    .command('list')
    .description('list the groups of the config file with their member counts')
    .addOption(urlOption())
    .addOption(jsonOption())
    .action((opts: JsonServerOptions) =>
      api(async () => (await import('./commands/admin/groups-list.js')).runGroupsList(ctx, opts)),
    );

  groups
    .command('members')
    .description("list a group's members from every source, 20 per page by default")
    .argument('<id>', 'the group id')
    .option('--page <n>', 'page number, from 1', positiveInteger)
    .option('--page-size <n>', 'members per page, 1..100 (default 20)', positiveInteger)
    .addOption(urlOption())
    .addOption(jsonOption())
    .action((id: string, opts: GroupsMembersOptions) =>
      api(async () => (await import('./commands/admin/groups-members.js')).runGroupsMembers(ctx, id, opts)),
    );

  groups
    .command('add')
    .description('add a database-managed user to a group (nothing changes when it is in already)')
    .argument('<id>', 'the group id')
    .argument('<user>', "the user's sub or e-mail")
    .addOption(urlOption())
    .addOption(jsonOption())
    .action((id: string, user: string, opts: JsonServerOptions) =>
      api(async () => (await import('./commands/admin/groups-add.js')).runGroupsAdd(ctx, id, user, opts)),
    );

  groups
    .command('remove')
    .description('remove a database-managed user from a group it was added to with `groups add`')
    .argument('<id>', 'the group id')
    .argument('<user>', "the user's sub or e-mail")
    .addOption(urlOption())
    .addOption(jsonOption())
    .action((id: string, user: string, opts: JsonServerOptions) =>
      api(async () => (await import('./commands/admin/groups-remove.js')).runGroupsRemove(ctx, id, user, opts)),
    );

  admin
    .command('access')
    .description('who may use which client (clients[].access)')
    .command('check')
    .description('say whether a user may use a client, and why (exit 0 allowed, 1 denied)')
    .requiredOption('--client <id>', 'the client_id')
    .requiredOption('--user <user>', "the user's sub or e-mail")
    .addOption(urlOption())
    .addOption(jsonOption())
    .action((opts: AccessCheckOptions) =>
      api(async () => (await import('./commands/admin/access-check.js')).runAccessCheck(ctx, opts)),
    );
}

/** package.json's version: the file sits two levels above this module in src/cli and in dist/cli alike. */
function packageVersion(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string })
    .version;
}

function positiveInteger(value: string): number {
  if (!/^[0-9]+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('expected a whole number >= 1');
  return Number(value);
}
