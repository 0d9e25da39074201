import { Outlet } from "react-router";
import { Minimal } from "./minimal";

/** Empty layout (spec §2): only the page itself; entry warning in nl and de only. */
export default function EmptyLayout() {
  return (
    <Minimal entryWarning>
      <Outlet />
    </Minimal>
  );
}
