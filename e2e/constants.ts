// Shared by playwright.config.ts (which seeds the first admin) and the tests (which sign in as it).
export const ADMIN_EMAIL = "admin@example.com";
export const ADMIN_PASSWORD = "e2e-admin-pass-1234";
export const DEFAULT_E2E_PORT = 3290;
