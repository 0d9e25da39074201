import { Outlet } from "react-router";
import { Minimal } from "./minimal";

/** Chat layout (spec §2): the conversation fills the screen; no footer, no entry warning (members only). */
export default function ChatLayout() {
  return (
    <Minimal entryWarning={false}>
      <Outlet />
    </Minimal>
  );
}
