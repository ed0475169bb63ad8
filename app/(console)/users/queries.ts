import { apiFetch } from "@/components/api-client";
import type { Page } from "@/lib/pagination";
import type { TCreateUser, TResetPassword, TUpdateUser, TUser } from "@/lib/schemas";

export const USERS_PAGE_SIZE = 20;
export const usersKey = ["users"] as const;

export const listUsers = (cursor: string | undefined, search: string, signal?: AbortSignal) => {
  const q = new URLSearchParams({ limit: String(USERS_PAGE_SIZE) });
  if (cursor) q.set("cursor", cursor);
  if (search.trim()) q.set("q", search.trim());
  return apiFetch<Page<TUser>>(`/api/v1/users?${q.toString()}`, { signal });
};

export const createUser = (body: TCreateUser) =>
  apiFetch<{ user: TUser; generatedPassword?: string }>("/api/v1/users", { method: "POST", body });

export const updateUser = (id: string, body: TUpdateUser) =>
  apiFetch<TUser>(`/api/v1/users/${encodeURIComponent(id)}`, { method: "PATCH", body });

export const resetPassword = (id: string, body: TResetPassword) =>
  apiFetch<{ user: TUser; generatedPassword?: string }>(`/api/v1/users/${encodeURIComponent(id)}/password`, { method: "POST", body });
