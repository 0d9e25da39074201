import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { installRouterReloadHook } from "./lib/chunk-reload";
import { primePageMessages } from "./lib/messages";

/**
 * Hydrates once the page's messages are here (they are not in the HTML, decision 027). Without them
 * React would render message ids over the server's text, so a page whose messages cannot be loaded
 * stays as the server rendered it: readable, its links working.
 */
function hydrate() {
  // React Router's own reloads ask spec §8's once-per-60 s rule first (router-reloads.ts).
  installRouterReloadHook();
  primePageMessages().then(hydrateNow, (error: unknown) => console.error("the page's messages did not load", error));
}

function hydrateNow() {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  });
}

// React Router's default entry, except that the server's HTML is painted before hydration starts
// (decision 014): when the scripts arrive before the first frame, hydrating at once would hold the
// first paint back by the whole hydration task. The frame callback runs before that paint and the
// timeout after it. A page in a background tab gets no frames: it hydrates at once.
if (document.visibilityState === "visible") requestAnimationFrame(() => setTimeout(hydrate, 0));
else hydrate();
