// GET|POST /api/auth/* – next-auth sign-in, sign-out and session endpoints
import NextAuth from "next-auth";
import { authOptions } from "@/app/_lib/auth";

const handler = NextAuth(authOptions) as (req: Request, ctx: unknown) => Promise<Response>;
export { handler as GET, handler as POST };
