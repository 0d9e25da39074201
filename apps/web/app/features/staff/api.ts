import type { StaffEndpoint } from "@app/contract";
import { type UseQueryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { apiCall } from "../../lib/api";

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;
type In<S> = S extends z.ZodType ? z.input<S> : undefined;

export interface StaffCallInput<E extends StaffEndpoint> {
  params?: In<E["params"]>;
  query?: In<E["query"]>;
  body?: In<E["body"]>;
}

/** The path of a staff call with its :params filled in and its query as search parameters. */
export function staffPath<E extends StaffEndpoint>(endpoint: E, input: StaffCallInput<E> = {}): string {
  const params = (input.params ?? {}) as Record<string, unknown>;
  const path = endpoint.path.replace(/:([a-zA-Z_]+)/g, (_, name: string) => encodeURIComponent(String(params[name])));
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries((input.query ?? {}) as Record<string, unknown>)) {
    if (value !== undefined && value !== null && value !== "") search.set(key, String(value));
  }
  return search.size ? `${path}?${search}` : path;
}

/**
 * Calls one endpoint of the staff API (packages/contract/src/staff*.ts); the answer is parsed with its
 * response schema, failures are ApiCallError (lib/api.ts), retried only where that is safe.
 */
export function staffFetch<const E extends StaffEndpoint>(
  endpoint: E,
  input: StaffCallInput<E> = {},
): Promise<Out<E["response"]>> {
  const init: RequestInit = { method: endpoint.method };
  if (endpoint.method !== "GET") init.body = JSON.stringify(input.body ?? {});
  return apiCall(staffPath(endpoint, input), endpoint.response, init) as Promise<Out<E["response"]>>;
}

/** The query key of a staff call: its path (with params and query), so invalidating a path prefix works. */
export const staffKey = <E extends StaffEndpoint>(endpoint: E, input: StaffCallInput<E> = {}) => [
  "staff",
  endpoint.path,
  input.params ?? null,
  input.query ?? null,
];

export function useStaffQuery<const E extends StaffEndpoint>(
  endpoint: E,
  input: Omit<StaffCallInput<E>, "body"> = {},
  options: Omit<UseQueryOptions<Out<E["response"]>>, "queryKey" | "queryFn"> = {},
) {
  return useQuery({ queryKey: staffKey(endpoint, input), queryFn: () => staffFetch(endpoint, input), ...options });
}

/**
 * A staff write. Afterwards every staff query whose path starts with one of `invalidates` loads again
 * (e.g. ["/staff/api/inbox"]).
 */
export function useStaffMutation<const E extends StaffEndpoint>(endpoint: E, invalidates: readonly string[] = []) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: StaffCallInput<E>) => staffFetch(endpoint, input),
    onSuccess: async () => {
      await client.invalidateQueries({
        predicate: (query) =>
          query.queryKey[0] === "staff" && invalidates.some((prefix) => String(query.queryKey[1]).startsWith(prefix)),
      });
    },
  });
}
