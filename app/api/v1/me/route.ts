// GET /api/v1/me – the caller and how it authenticated
import { apiRoute } from "@/app/_lib/api";
import { toUserDto } from "@/server/users/user-dto";

export const GET = apiRoute("USER", async ({ user, ctx }) => ({ user: toUserDto(user), via: ctx.via }));
