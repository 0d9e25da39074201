import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";

/**
 * The page's query cache (decision 013). apiCall already retries where it is safe (spec §7), so the
 * cache does not retry again; nothing refetches behind the member's back (focus, reconnect): a query
 * loads when a component first needs it, and a later change arrives through `setQueryData` or
 * `invalidateQueries`.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, refetchOnReconnect: false },
      mutations: { retry: false },
    },
  });
}

/** One cache per page (and per server render, so that members never share one). */
export function QueryProvider({ children }: { children: ReactNode }) {
  const [client] = useState(createQueryClient);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
