// zod contracts of the REST API, shared by route handlers, the console and the OpenAPI document.
import { z } from "zod";
import { ROLES } from "./roles";

export const ZRole = z.enum(ROLES).meta({ id: "Role" });

export const ZApiError = z
  .object({
    error: z.object({
      code: z.string().meta({ example: "validation_failed" }),
      message: z.string(),
      details: z.unknown().optional(),
    }),
  })
  .meta({ id: "Error" });
export type TApiError = z.infer<typeof ZApiError>;

export const ZEmail = z.string().trim().toLowerCase().pipe(z.email({ message: "must be an e-mail address" }));
export const ZPassword = z.string().min(8, "must have at least 8 characters").max(200);

export const ZUser = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string().nullable(),
    role: ZRole,
    disabled: z.boolean(),
    createdAt: z.string().meta({ format: "date-time" }),
    lastLoginAt: z.string().meta({ format: "date-time" }).nullable(),
  })
  .meta({ id: "User" });
export type TUser = z.infer<typeof ZUser>;

export const ZCreateUser = z
  .object({
    email: ZEmail,
    name: z.string().trim().max(200).optional(),
    role: ZRole.default("USER"),
    password: ZPassword.optional().meta({ description: "Omit to generate one; it is returned once." }),
  })
  .strict()
  .meta({ id: "CreateUser" });
export type TCreateUser = z.input<typeof ZCreateUser>;

export const ZCreatedUser = z
  .object({ user: ZUser, generatedPassword: z.string().optional() })
  .meta({ id: "CreatedUser" });

export const ZUpdateUser = z
  .object({
    name: z.string().trim().max(200).nullable().optional(),
    role: ZRole.optional(),
    disabled: z.boolean().optional(),
    password: ZPassword.optional(),
  })
  .strict()
  .refine((v) => Object.keys(v).length > 0, "give at least one field to change")
  .meta({ id: "UpdateUser" });
export type TUpdateUser = z.infer<typeof ZUpdateUser>;

export const ZApiToken = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string(),
    createdAt: z.string().meta({ format: "date-time" }),
    lastUsedAt: z.string().meta({ format: "date-time" }).nullable(),
    expiresAt: z.string().meta({ format: "date-time" }).nullable(),
    revokedAt: z.string().meta({ format: "date-time" }).nullable(),
  })
  .meta({ id: "ApiToken" });
export type TApiToken = z.infer<typeof ZApiToken>;

export const ZCreateApiToken = z
  .object({
    name: z.string().trim().min(1).max(100).default("api"),
    expiresInDays: z.number().int().min(1).max(3650).optional(),
  })
  .strict()
  .meta({ id: "CreateApiToken" });

export const ZCreatedApiToken = z
  .object({ token: z.string().meta({ description: "Shown once; store it now." }), apiToken: ZApiToken })
  .meta({ id: "CreatedApiToken" });

export const ZPageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().min(1).optional(),
});
export type TPageQuery = z.infer<typeof ZPageQuery>;

export const page = <T extends z.ZodType>(item: T, id: string) =>
  z.object({ items: z.array(item), nextCursor: z.string().nullable() }).meta({ id });

export const ZUserPage = page(ZUser, "UserPage");
export const ZApiTokenList = z.object({ items: z.array(ZApiToken) }).meta({ id: "ApiTokenList" });

export const ZHealth = z
  .object({
    status: z.enum(["ok", "degraded"]),
    version: z.string(),
    database: z.object({ status: z.enum(["up", "down"]), latencyMs: z.number().nullable(), error: z.string().optional() }),
  })
  .meta({ id: "Health" });
export type THealth = z.infer<typeof ZHealth>;

export const ZMe = z.object({ user: ZUser, via: z.enum(["session", "api_token"]) }).meta({ id: "Me" });
