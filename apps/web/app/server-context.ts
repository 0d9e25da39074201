import type { SsrServices } from "@app/contract";
import { createContext, RouterContextProvider } from "react-router";

/** The per-request services the Fastify host provides to loaders (see apps/server/src/platform/http/ssr.ts). */
export const servicesContext = createContext<SsrServices>();

export function createLoadContext(services: SsrServices): RouterContextProvider {
  const provider = new RouterContextProvider();
  provider.set(servicesContext, services);
  return provider;
}
