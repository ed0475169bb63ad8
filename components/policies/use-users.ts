"use client";
import { useQuery } from "@tanstack/react-query";
import { listUsersForPicker, policyUsersKey } from "./queries";

/** The users for the grant, effective-access and simulator pickers. */
export function useUsers() {
  return useQuery({ queryKey: policyUsersKey, queryFn: ({ signal }) => listUsersForPicker(signal), staleTime: 30_000 });
}
