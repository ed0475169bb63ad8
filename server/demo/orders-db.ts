// The demo orders service's own small database: a `portcullis_demo` database and role on the same
// PostgreSQL server, so `run_sql` runs with the demo role's rights only, never the gateway's.
import { randomBytes } from "node:crypto";
import pg from "pg";

const STATUSES = ["pending", "paid", "shipped", "delivered", "cancelled"] as const;
export type OrderStatus = (typeof STATUSES)[number];
export const ORDER_STATUSES = STATUSES;

const FIRST = ["Ana", "Ben", "Chen", "Dara", "Eli", "Fatima", "Goran", "Hana", "Ivo", "Jun", "Kofi", "Lena"];
const LAST = ["Silva", "Meyer", "Wang", "Okafor", "Novak", "Haddad", "Kim", "Rossi", "Tanaka", "Berg"];

/**
 * Creates (once) the demo role and database and returns the demo role's connection URL. `adminUrl` is a
 * superuser connection to the gateway's PostgreSQL server.
 */
export async function ensureDemoDatabase(adminUrl: string, password = randomBytes(12).toString("base64url")): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const role = await admin.query("SELECT 1 FROM pg_roles WHERE rolname = 'portcullis_demo'");
    if (role.rowCount) await admin.query(`ALTER ROLE portcullis_demo WITH LOGIN PASSWORD '${password}'`);
    else await admin.query(`CREATE ROLE portcullis_demo WITH LOGIN PASSWORD '${password}' NOSUPERUSER NOCREATEDB NOCREATEROLE`);
    const db = await admin.query("SELECT 1 FROM pg_database WHERE datname = 'portcullis_demo'");
    if (!db.rowCount) await admin.query("CREATE DATABASE portcullis_demo OWNER portcullis_demo");
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.username = "portcullis_demo";
  url.password = password;
  url.pathname = "/portcullis_demo";
  await seedOrders(url.toString());
  return url.toString();
}

/** Creates and fills the `orders` table when it is missing; deterministic so tests can rely on it. */
export async function seedOrders(url: string, count = 240): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE TABLE IF NOT EXISTS orders (
      id text PRIMARY KEY,
      customer_name text NOT NULL,
      customer_email text NOT NULL,
      customer_phone text NOT NULL,
      status text NOT NULL,
      total_cents integer NOT NULL,
      currency text NOT NULL DEFAULT 'EUR',
      note text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL)`);
    const { rows } = await client.query<{ n: string }>("SELECT count(*) AS n FROM orders");
    if (Number(rows[0]?.n) > 0) return;
    const values: unknown[] = [];
    const tuples: string[] = [];
    const base = Date.UTC(2026, 0, 1);
    for (let i = 0; i < count; i++) {
      const first = FIRST[i % FIRST.length]!;
      const last = LAST[(i * 7) % LAST.length]!;
      const created = new Date(base + i * 3_600_000 * 17);
      const row = [
        `ORD-${String(10001 + i)}`,
        `${first} ${last}`,
        `${first.toLowerCase()}.${last.toLowerCase()}${i}@example.com`,
        `+49 151 ${String(1000000 + i * 7919).slice(0, 7)}`,
        STATUSES[(i * 3) % STATUSES.length],
        1000 + ((i * 7907) % 50000),
        created,
      ];
      const o = values.length;
      tuples.push(`($${o + 1},$${o + 2},$${o + 3},$${o + 4},$${o + 5},$${o + 6},'EUR',NULL,$${o + 7},$${o + 7})`);
      values.push(...row);
    }
    await client.query(`INSERT INTO orders VALUES ${tuples.join(",")}`, values);
  } finally {
    await client.end();
  }
}
