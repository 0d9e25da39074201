import { Outlet } from "react-router";
import { Minimal } from "./minimal";

/** Lander layout (spec §2) for the /landers/* campaign pages; entry warning in nl and de only. */
export default function LanderLayout() {
  return (
    <Minimal entryWarning>
      <Outlet />
    </Minimal>
  );
}
