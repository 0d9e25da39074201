import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";

function hydrate() {
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
