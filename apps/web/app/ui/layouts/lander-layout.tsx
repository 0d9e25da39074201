import { Outlet } from "react-router";
import landerStylesheet from "../../styles/landers.css?url";
import { Minimal } from "./minimal";

/** The landers' own small stylesheet, only on their pages (decision 024). */
export const links = () => [{ rel: "stylesheet", href: landerStylesheet }];

/** Lander layout (spec §2) for the /landers/* campaign pages; entry warning in nl and de only. */
export default function LanderLayout() {
  return (
    <Minimal entryWarning>
      <Outlet />
    </Minimal>
  );
}
