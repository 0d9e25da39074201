import {
  type ApiError,
  apiErrorSchema,
  type Endpoint,
  type EndpointBody,
  type EndpointQuery,
  type EndpointResponse,
  LIMITS,
} from "@app/contract";
import type { z } from "zod";
import { reportBanned, reportSessionLost } from "./session-lost";

/** A failed call: the server's `{ error, message }`, or `network` when no answer arrived. */
export class ApiCallError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiError | null,
  ) {
    super(body?.message ?? `HTTP ${status}`);
  }
  get code(): string {
    return this.body?.error ?? (this.status === 0 ? "network" : "internal");
  }
}

export interface ApiOptions {
  /** Relative paths resolve against this; the browser's own origin by default (spec §7: relative base URL). */
  baseUrl?: string;
  retries?: number;
  /** Delay before retry n (0-based): 250 ms · 2^n by default. */
  backoffMs?: (attempt: number) => number;
  fetch?: typeof fetch;
  /** Called on 403 authentication_required (the caller logs the member out). */
  onAuthenticationRequired?: () => void;
}

const defaults: Required<Omit<ApiOptions, "baseUrl" | "onAuthenticationRequired" | "fetch">> = {
  retries: LIMITS.httpRetries,
  backoffMs: (attempt) => 250 * 2 ** attempt,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What is worth another try. Idempotent methods: no answer, 408 and 5xx. Others (a POST that sends a
 * message or pays): only 503, which says the request was not processed, so that a retry can never do
 * the thing twice. A 429 is an answer (rate limit, login lock), never retried.
 */
function retriable(status: number, method: string): boolean {
  if (["GET", "HEAD", "OPTIONS", "PUT", "DELETE"].includes(method)) {
    return status === 0 || status === 408 || status >= 500;
  }
  return status === 503;
}

/**
 * Calls an endpoint of the contract: up to 5 retries with exponential backoff (spec §7) where a retry
 * is safe (see retriable), the answer
 * parsed with the endpoint's response schema, failures as ApiCallError.
 */
export async function apiCall<S extends z.ZodType>(
  path: string,
  schema: S,
  init: RequestInit = {},
  options: ApiOptions = {},
): Promise<z.infer<S>> {
  const retries = options.retries ?? defaults.retries;
  const backoff = options.backoffMs ?? defaults.backoffMs;
  const doFetch = options.fetch ?? fetch;
  const url = options.baseUrl ? new URL(path, options.baseUrl).toString() : path;
  const method = (init.method ?? "GET").toUpperCase();
  let lastError: ApiCallError = new ApiCallError(0, null);
  for (let attempt = 0; attempt <= retries; attempt++) {
    if (attempt > 0) await sleep(backoff(attempt - 1));
    let response: Response;
    try {
      response = await doFetch(url, {
        credentials: "same-origin",
        ...init,
        // JSON bodies are strings; a FormData body (photo upload) sets its own multipart boundary.
        headers: {
          accept: "application/json",
          ...(typeof init.body === "string" ? { "content-type": "application/json" } : {}),
          ...init.headers,
        },
      });
    } catch {
      lastError = new ApiCallError(0, null);
      if (!retriable(0, method)) throw lastError;
      continue;
    }
    const body: unknown = await response.json().catch(() => null);
    if (response.ok) return schema.parse(body);
    const parsed = apiErrorSchema.safeParse(body);
    lastError = new ApiCallError(response.status, parsed.success ? parsed.data : null);
    if (response.status === 403 && lastError.code === "authentication_required") {
      options.onAuthenticationRequired?.();
      throw lastError;
    }
    // Issue #27: a banned member's every call says so; the page shows why.
    if (response.status === 403 && lastError.code === "account_banned") {
      reportBanned();
      throw lastError;
    }
    if (!retriable(response.status, method)) throw lastError;
  }
  throw lastError;
}

/**
 * Loads something once per key for the page's life and shares the answer (interests per locale,
 * regions, company info: spec §7). A failure is not cached, so the next call tries again.
 */
export function onceBy<K, T>(load: (key: K) => Promise<T>): (key: K) => Promise<T> {
  const pending = new Map<K, Promise<T>>();
  return (key) => {
    let promise = pending.get(key);
    if (!promise) {
      promise = load(key).catch((error: unknown) => {
        pending.delete(key);
        throw error;
      });
      pending.set(key, promise);
    }
    return promise;
  };
}

// The session-lost signal lives apart so that the member state can subscribe on every page without
// loading this module and the contract's schemas with it (decision 025).
export { onSessionLost, reportSessionLost } from "./session-lost";

/**
 * Calls one endpoint of the contract's table (packages/contract/src/endpoints.ts): its method and path,
 * the query (after the endpoint's `when` values) as search parameters, the body as JSON (or a FormData upload), the answer parsed with its
 * response schema. Endpoints that need a member report a 403 authentication_required as a lost session
 * (spec §4); the user call itself never does.
 */
export function callEndpoint<const E extends Endpoint>(
  endpoint: E,
  input: { query?: EndpointQuery<E>; body?: EndpointBody<E> | FormData; headers?: Record<string, string> } = {},
  options: ApiOptions = {},
): Promise<EndpointResponse<E>> {
  if (typeof endpoint.response === "string") throw new Error(`${endpoint.path} answers with a ${endpoint.response}, not JSON`);
  // The values that route this call (POST /api/user.php?push=1), then the endpoint's own query.
  const search = new URLSearchParams(endpoint.when);
  for (const [key, value] of Object.entries((input.query ?? {}) as Record<string, unknown>)) {
    if (value !== undefined && value !== null && value !== "") search.set(key, String(value));
  }
  const path = search.size ? `${endpoint.path}?${search}` : endpoint.path;
  const init: RequestInit = { method: endpoint.method, ...(input.headers ? { headers: input.headers } : {}) };
  if (input.body instanceof FormData) init.body = input.body;
  else if (input.body !== undefined || (endpoint.method !== "GET" && endpoint.method !== "DELETE")) {
    init.body = JSON.stringify(input.body ?? {});
  }
  return apiCall(path, endpoint.response, init, {
    ...(endpoint.auth === "member" ? { onAuthenticationRequired: reportSessionLost } : {}),
    ...options,
  }) as Promise<EndpointResponse<E>>;
}

/**
 * Fetches a file to save (an endpoint whose response is "download": the data export's ZIP) and hands
 * it to the browser as a download under the server's file name. Failures as ApiCallError, as apiCall's.
 */
export async function downloadFile(path: string, options: Pick<ApiOptions, "fetch"> = {}): Promise<string> {
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(path, {
      credentials: "same-origin",
      headers: { accept: "application/zip, application/json" },
    });
  } catch {
    throw new ApiCallError(0, null);
  }
  if (!response.ok) {
    const parsed = apiErrorSchema.safeParse(await response.json().catch(() => null));
    throw new ApiCallError(response.status, parsed.success ? parsed.data : null);
  }
  const filename = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? "download";
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click's task is over.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return filename;
}
