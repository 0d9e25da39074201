import { Outlet, useRouteError } from "react-router";
import { ErrorPage } from "../error-page";
import { Minimal } from "./minimal";

/** Chat layout (spec §2): the conversation fills the screen; no footer, no entry warning (members only). */
export default function ChatLayout() {
  return (
    <Minimal entryWarning={false}>
      <Outlet />
    </Minimal>
  );
}

/** A chat route's error (an unknown member or conversation id) in the same minimal frame. */
export function ErrorBoundary() {
  const error = useRouteError();
  return (
    <Minimal entryWarning={false}>
      <ErrorPage error={error} />
    </Minimal>
  );
}
