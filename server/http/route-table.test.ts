import path from "node:path";
import { describe, expect, it } from "vitest";
import { allowedMethods, exportedMethods, loadRouteTable, matchRoute } from "./route-table";

const APP = path.resolve(import.meta.dirname, "../../app");
const routes = loadRouteTable(APP);
const methodsAt = (p: string) => matchRoute(routes, p.split("/").slice(1))?.methods;

describe("exportedMethods", () => {
  it.each([
    ["export const GET = apiRoute(...)", ["GET"]],
    ["export async function GET(req: Request) {}\nexport function POST() {}", ["GET", "POST"]],
    ["export { handle as GET, handle as POST, handle as DELETE };", ["GET", "POST", "DELETE"]],
    ["export const dynamic = 'force-dynamic';\nconst GET = 1;", []],
    ["// export const PUT = x", []],
  ])("%s → %j", (source, methods) => expect(exportedMethods(source)).toEqual(methods));
});

describe("allowedMethods", () => {
  it("adds HEAD with GET, and OPTIONS always, as Next.js does", () => {
    expect(allowedMethods(["GET", "POST"])).toEqual(["GET", "HEAD", "OPTIONS", "POST"]);
    expect(allowedMethods(["DELETE"])).toEqual(["OPTIONS", "DELETE"]);
  });
});

describe("loadRouteTable on app/", () => {
  it("reads every route file's methods as the module exports them", async () => {
    expect(routes.length).toBeGreaterThan(40);
    for (const route of routes) {
      const file = path.join(APP, ...route.pattern.split("/").slice(1), "route.ts");
      const exported = Object.keys((await import(file)) as object).filter((k) => /^[A-Z]+$/.test(k));
      expect(route.methods, route.pattern).toEqual(
        allowedMethods(exportedMethods(exported.map((m) => `export const ${m} = 1;`).join("\n"))),
      );
    }
  }, 60_000);

  it.each([
    ["/mcp", ["GET", "HEAD", "OPTIONS", "POST", "DELETE"]],
    ["/mcp/s/anything", ["GET", "HEAD", "OPTIONS", "POST", "DELETE"]],
    ["/api/health", ["GET", "HEAD", "OPTIONS"]],
    ["/api/v1/tools", ["GET", "HEAD", "OPTIONS"]],
    ["/api/v1/me", ["GET", "HEAD", "OPTIONS"]],
    ["/api/v1/tokens/some-id", ["OPTIONS", "DELETE"]],
    // A path no route file names falls to the JSON 404 catch-all, which takes every method.
    ["/api/v1/no/such/route", ["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"]],
  ])("matches %s as Next.js does (static before parameter before catch-all)", (p, methods) => {
    expect(methodsAt(p)).toEqual(methods);
  });
});
