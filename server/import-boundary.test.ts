// server/ is the gateway core and knows nothing of Next.js, React or app/: the ESLint rule that says so,
// and a scan showing the tree obeys it today.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import tseslint from "typescript-eslint";
import { describe, expect, it } from "vitest";
// @ts-expect-error -- eslint.config.mjs is plain JavaScript without type declarations
import { serverBoundary } from "../eslint.config.mjs";

const ROOT = path.resolve(import.meta.dirname, "..");

const eslint = new ESLint({
  cwd: ROOT,
  overrideConfigFile: true,
  overrideConfig: [
    { files: ["**/*.ts"], languageOptions: { parser: tseslint.parser, sourceType: "module" } },
    serverBoundary,
  ],
});

async function restrictedImportMessages(code: string, file: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  const fatal = result!.messages.filter((m) => m.fatal);
  expect(fatal).toEqual([]);
  return result!.messages.filter((m) => m.ruleId === "no-restricted-imports" && m.severity === 2).map((m) => m.message);
}

const FORBIDDEN_IN_SERVER = [
  `import { headers } from "next/headers";`,
  `import { NextResponse } from "next/server";`,
  `import next from "next";`,
  `import NextAuth from "next-auth";`,
  `import { getServerSession } from "next-auth/next";`,
  `import x from "react";`,
  `import { useState } from "react";`,
  `import { createRoot } from "react-dom";`,
  `import { renderToString } from "react-dom/server";`,
  `import { jsx } from "react/jsx-runtime";`,
  `import a from "@/app/_lib/auth";`,
  `import b from "../../app/x";`,
  `import c from "../app/api/route";`,
  `import { Button } from "@/components/ui/button";`,
  `import d from "../components/x";`,
  `export { GET } from "@/app/api/health/route";`,
  `import type { NextRequest } from "next/server";`,
];

describe("server/ import boundary (eslint serverBoundary)", () => {
  it.each(FORBIDDEN_IN_SERVER)("reports `%s` in server/x.ts", async (code) => {
    const messages = await restrictedImportMessages(code, "server/x.ts");
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/server\/ /);
  });

  it.each(FORBIDDEN_IN_SERVER)("allows `%s` in app/x.ts", async (code) => {
    expect(await restrictedImportMessages(code, "app/x.ts")).toEqual([]);
  });

  it("applies to nested server folders too", async () => {
    expect(
      await restrictedImportMessages(`import { cookies } from "next/headers";`, "server/users/deep/y.ts"),
    ).toHaveLength(1);
  });

  it.each([
    `import { z } from "zod";`,
    `import pg from "pg";`,
    `import { toPage } from "../../lib/pagination";`,
    `import { hasRole } from "@/lib/roles";`,
    `import { GatewayError } from "./errors";`,
    `import { Client } from "@modelcontextprotocol/sdk/client/index.js";`,
    `import { nextCursor } from "./next-cursor";`,
    `import { reactToEvent } from "../reactions/react-to-event";`,
  ])("allows `%s` in server/", async (code) => {
    expect(await restrictedImportMessages(code, "server/x.ts")).toEqual([]);
  });
});

describe("server/ source tree", () => {
  const SERVER = path.join(ROOT, "server");
  // This file spells the forbidden specifiers out as test data.
  const SKIP = [path.join(SERVER, "db", "generated"), import.meta.filename];

  function sourceFiles(dir: string): string[] {
    return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
      const full = path.join(dir, d.name);
      if (SKIP.includes(full)) return [];
      if (d.isDirectory()) return sourceFiles(full);
      return /\.(ts|tsx|mts|cts|js|mjs)$/.test(d.name) ? [full] : [];
    });
  }

  function specifiers(source: string): string[] {
    const found: string[] = [];
    const patterns = [
      /\b(?:import|export)\s[^'"]*?\bfrom\s*["']([^"']+)["']/g,
      /\bimport\s*["']([^"']+)["']/g,
      /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
      /\brequire\s*\(\s*["']([^"']+)["']\s*\)/g,
    ];
    for (const re of patterns) for (const m of source.matchAll(re)) found.push(m[1]!);
    return found;
  }

  function violates(file: string, spec: string): boolean {
    if (/^(next|next-auth|react|react-dom)(\/|$)/.test(spec)) return true;
    if (/^@\/(app|components)(\/|$)/.test(spec)) return true;
    if (spec.startsWith(".")) {
      const target = path.relative(ROOT, path.resolve(path.dirname(file), spec));
      return /^(app|components)(\/|$)/.test(target);
    }
    return false;
  }

  it("finds the scanner's patterns on a sample", () => {
    const sample = `import a from "next/headers";\nimport type { B } from '../../app/b';\nexport * from "react";\nconst c = await import("@/components/c");\nimport "next";`;
    const specs = specifiers(sample);
    expect(specs.sort()).toEqual(["../../app/b", "@/components/c", "next", "next/headers", "react"].sort());
    expect(specs.every((s) => violates(path.join(SERVER, "users", "x.ts"), s))).toBe(true);
    expect(violates(path.join(SERVER, "x.ts"), "./next-step")).toBe(false);
  });

  it("imports nothing from Next.js, React, app/ or components/ (outside db/generated)", () => {
    const files = sourceFiles(SERVER);
    expect(files.length).toBeGreaterThan(10);
    const offenders = files.flatMap((file) =>
      specifiers(readFileSync(file, "utf8"))
        .filter((spec) => violates(file, spec))
        .map((spec) => `${path.relative(ROOT, file)} → ${spec}`),
    );
    expect(offenders).toEqual([]);
  });
});
