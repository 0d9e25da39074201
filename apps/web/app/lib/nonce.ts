import { createContext, useContext } from "react";

/**
 * The CSP nonce of the current response. The server sets it per request (entry.server.tsx); in the
 * browser it is read back from the server-rendered scripts (browsers hide the attribute but keep the
 * `nonce` property), so that hydration sees the same value React rendered on the server.
 */
const browserNonce =
  typeof document === "undefined" ? "" : (document.querySelector<HTMLScriptElement>("script[nonce]")?.nonce ?? "");

export const NonceContext = createContext<string>(browserNonce);
export const useNonce = () => useContext(NonceContext);
