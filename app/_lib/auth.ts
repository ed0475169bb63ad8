// next-auth (v4) with e-mail + password. The JWT carries only the user id: role and disabled flag are
// read from the database on every request, so a role change or a disabled account takes effect at once. It
// also carries a stamp of the password hash: a password change or reset ends the sessions signed in before it.
import type { NextAuthOptions, User as AuthUser } from "next-auth";
import type { OAuthConfig } from "next-auth/providers/oauth";
import { getServerSession } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { forbidden, redirect } from "next/navigation";
import { hasRole, type TRole } from "@/lib/roles";
import type { User } from "@/server/db/client";
import { passwordStamp } from "@/server/auth/password-stamp";
import { isGatewayError } from "@/server/errors";
import { loadConfig, type Config } from "@/server/config";
import { getGateway } from "./gateway";

/** The id of the OpenID provider in next-auth's routes (/api/auth/signin/sso, /api/auth/callback/sso). */
export const SSO_PROVIDER_ID = "sso";

let signInConfig: Pick<Config, "sso" | "passwordSignin"> | undefined;
/** How people sign in to the console, from the environment alone: it is read while `next build` prerenders, with no database. */
export function signInSettings(): Pick<Config, "sso" | "passwordSignin"> {
  signInConfig ??= loadConfig();
  return signInConfig;
}

/** SSO_* set: authorization code with PKCE and state against the issuer's discovery document. */
function ssoProvider(): OAuthConfig<Record<string, unknown>>[] {
  const { sso } = signInSettings();
  if (!sso) return [];
  return [
    {
      id: SSO_PROVIDER_ID,
      name: sso.name,
      type: "oauth",
      wellKnown: `${sso.issuer}/.well-known/openid-configuration`,
      clientId: sso.clientId,
      clientSecret: sso.clientSecret,
      idToken: true,
      checks: ["pkce", "state"],
      authorization: { params: { scope: "openid email profile" } },
      // The console's user is found or made in the signIn callback; this is only next-auth's view of the claims.
      profile: (claims) => ({ id: String(claims.sub), email: typeof claims.email === "string" ? claims.email : null, name: typeof claims.name === "string" ? claims.name : null }),
    },
  ];
}

const credentialsProvider = CredentialsProvider({
      name: "E-mail and password",
      credentials: { email: { label: "E-mail", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(credentials, req) {
        const email: unknown = credentials?.email;
        const password: unknown = credentials?.password;
        if (typeof email !== "string" || typeof password !== "string" || !email || !password) return null;
        const headers = (req.headers ?? {}) as Record<string, string | string[] | undefined>;
        const fwd = headers["x-forwarded-for"];
        const ip = (Array.isArray(fwd) ? fwd[0] : fwd)?.split(",")[0]?.trim();
        try {
          const user = await getGateway().auth.verifyCredentials({ email, password, ip });
          return { id: user.id, email: user.email, name: user.name, stamp: passwordStamp(user.passwordHash) };
        } catch (err) {
          if (isGatewayError(err) && err.code === "unauthenticated") return null;
          // next-auth hands the message to the sign-in page as `error`.
          if (isGatewayError(err) && err.code === "rate_limited") throw new Error(`rate_limited:${err.retryAfterSeconds ?? 60}`, { cause: err });
          throw err;
        }
      },
    });

export const authOptions: NextAuthOptions = {
  session: { strategy: "jwt", maxAge: 12 * 60 * 60 },
  pages: { signIn: "/signin", error: "/signin" },
  // Read per request, so the providers follow the gateway's config rather than the build's environment.
  get providers() {
    return [...(signInSettings().passwordSignin ? [credentialsProvider] : []), ...ssoProvider()];
  },
  callbacks: {
    async signIn({ user, account, profile }) {
      if (account?.provider !== SSO_PROVIDER_ID) return true;
      try {
        const found = await getGateway().auth.ssoSignIn({ claims: { ...(profile as Record<string, unknown>) } });
        // next-auth hands this same object to the jwt callback: the session carries the console's user id.
        Object.assign(user, { id: found.id, email: found.email, name: found.name, stamp: passwordStamp(found.passwordHash) } satisfies AuthUser & { stamp: string });
        return true;
      } catch (err) {
        if (isGatewayError(err) && err.code === "unauthenticated") return `/signin?error=${encodeURIComponent(`sso:${err.message}`)}`;
        throw err;
      }
    },
    jwt({ token, user }) {
      if (user) {
        token.uid = user.id;
        token.stamp = (user as { stamp?: string }).stamp;
      }
      return token;
    },
    session({ session, token }) {
      if (session.user && typeof token.uid === "string") Object.assign(session.user, { id: token.uid, stamp: token.stamp });
      return session;
    },
  },
};

/** The signed-in user, fresh from the database, or null. */
export async function getSessionUser(): Promise<User | null> {
  const session = await getServerSession(authOptions);
  const { id, stamp } = (session?.user ?? {}) as { id?: string; stamp?: string };
  if (!id) return null;
  const user = await getGateway().users.getById(id);
  return user && !user.disabled && stamp === passwordStamp(user.passwordHash) ? user : null;
}

/** For pages: sends strangers to the sign-in page and answers 403 to a role that falls short. */
export async function requirePageUser(minRole: TRole = "USER", callbackUrl = "/"): Promise<User> {
  const user = await getSessionUser();
  if (!user) redirect(`/signin?callbackUrl=${encodeURIComponent(callbackUrl)}`);
  if (!hasRole(user.role, minRole)) forbidden();
  return user;
}
