// Encrypted secrets (Settings → Secrets, /api/v1/secrets): names and dates travel, values only ever go in.
// A server's environment or headers reference a secret as `${secret:NAME}`; the value is put in at launch.
import { z } from "zod";

export const SECRET_NAME_PATTERN = /^[A-Z][A-Z0-9_]{0,63}$/;
export const SECRET_VALUE_MAX_CHARS = 16_384;

export const ZSecretName = z
  .string()
  .regex(SECRET_NAME_PATTERN, "upper-case letters, digits and _, starting with a letter (at most 64)");

export const ZSecret = z
  .object({
    name: z.string(),
    createdAt: z.string().meta({ format: "date-time" }),
    updatedAt: z.string().meta({ format: "date-time" }),
    /** Slugs of the upstream servers whose env or headers reference it, or whose task credentials use it. */
    usedBy: z.array(z.string()),
  })
  .meta({ id: "Secret" });
export type TSecret = z.infer<typeof ZSecret>;

export const ZSecretList = z.object({ items: z.array(ZSecret) }).meta({ id: "SecretList" });
export type TSecretList = z.infer<typeof ZSecretList>;

export const ZPutSecret = z
  .object({
    name: ZSecretName,
    value: z
      .string()
      .min(1, "must not be empty")
      .max(SECRET_VALUE_MAX_CHARS, `must have at most ${String(SECRET_VALUE_MAX_CHARS)} characters`)
      .meta({ description: "Write-only: stored encrypted (AES-256-GCM), never returned." }),
  })
  .strict()
  .meta({ id: "PutSecret" });
export type TPutSecret = z.infer<typeof ZPutSecret>;

/** How a server's env or header value references a secret. */
export const secretRef = (name: string) => `\${secret:${name}}`;
