import { isLocaleCode } from "@app/contract";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext, RouterContextProvider } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { messagesFor } from "./i18n/messages.server";
import { deferScriptsStream } from "./lib/deferred-scripts.server";
import { MessagesContext } from "./lib/messages";
import { NonceContext } from "./lib/nonce";
import { servicesContext } from "./server-context";

export { createLoadContext } from "./server-context";

export const streamTimeout = 5_000;

/** The server renders with every catalogue at hand; the browser loads its locale's (lib/messages.ts). */
const serverMessages = (locale: string) => (isLocaleCode(locale) ? messagesFor(locale) : undefined);

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const { nonce } = loadContext.get(servicesContext);
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    // Crawlers and SPA-mode builds wait for all content; browsers get the shell as soon as it is ready.
    const readyOption = (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <MessagesContext.Provider value={serverMessages}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </MessagesContext.Provider>
      </NonceContext.Provider>,
      {
        nonce,
        // React 19.2 sends a finished Suspense boundary after the rest of the document once about 12.8 KB
        // were written (progressiveChunkSize), and an inline script moves it into place up to 300 ms
        // later: the members' results came after the footer, missing without JavaScript and shifting the
        // footer with it (CLS 0.3, issue #29). The boundaries are there for hydration in slices (decision
        // 039), not for streaming, so a finished one is written where it stands.
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        [readyOption]() {
          shellRendered = true;
          // The scripts start after the first paint (decision 027). Clear the abort timer once the whole
          // document is out, so no request holds it for 6 s.
          const body = deferScriptsStream(() => clearTimeout(timeoutId));
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    const timeoutId = setTimeout(abort, streamTimeout + 1000);
  });
}

/** Logs server-side render and loader failures, but not aborted requests or expected 4xx answers. */
export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  if (error instanceof Error && /did not provide an `action`|Invalid request method/.test(error.message)) return;
  console.error(error);
}
