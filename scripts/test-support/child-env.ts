// The environment for a child Portcullis process: the test runner's own settings (vitest's NODE_ENV=test,
// a DATABASE_URL or DATA_DIR of the developer's shell) must not leak into it; each test says what it wants.
const INHERITED_SETTINGS = [
  "NODE_ENV",
  "PORT",
  "HOST",
  "DATA_DIR",
  "DATABASE_URL",
  "EMBEDDED_PG_PORT",
  "PUBLIC_URL",
  "NEXTAUTH_SECRET",
  "NEXTAUTH_URL",
  "AUTH_SECRET",
  "ADMIN_EMAIL",
  "ADMIN_PASSWORD",
  "LOG_LEVEL",
  "LOGIN_MAX_FAILURES",
  "LOGIN_WINDOW_SECONDS",
  "PORTCULLIS_NO_DEMO",
];

export type EnvOverrides = Record<string, string | undefined>;

/** process.env without Portcullis settings and vitest markers, plus `overrides` (undefined removes a key). */
export function childEnv(overrides: EnvOverrides = {}): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (INHERITED_SETTINGS.includes(key) || key.startsWith("VITEST") || key.startsWith("__VITEST") || key === "TEST")
      continue;
    env[key] = value;
  }
  env.NODE_ENV = "production";
  env.LOG_LEVEL = "info";
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env as NodeJS.ProcessEnv;
}
