// One Prisma client per process, built on the pg driver adapter (Prisma 7 has no Rust query engine).
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/client";
import { storableJson } from "./storable";
import { withSerialTransactions } from "./serial-transactions";

export type Db = PrismaClient;
/** A client or an interactive transaction: repository functions take either. */
export type DbTx = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

export function createDb(databaseUrl: string, opts: { max?: number } = {}): Db {
  const adapter = withSerialTransactions(new PrismaPg({ connectionString: databaseUrl, max: opts.max ?? 10 }));
  return new PrismaClient({ adapter });
}

export { Prisma } from "./generated/client";
import type { Prisma as PrismaTypes } from "./generated/client";

/**
 * Values written to Json columns (definitions, launch settings, client info) are plain JSON data, made storable:
 * a NUL or a lone surrogate from a client or an upstream would otherwise fail the whole write (db/storable.ts).
 */
export const toJson = (v: unknown) => storableJson(v).value as PrismaTypes.InputJsonValue;
export type { User, ApiToken, AgentSession, UpstreamServer, ServerVersion, Tool, Approval, Task, AuditEvent, McpSession, Grant, ParameterRule, PolicyChange, VirtualServer, VirtualServerMember } from "./generated/client";
export { Role, RiskTier, ServerStatus, Transport, TaskStatus, ApprovalStatus } from "./generated/enums";
