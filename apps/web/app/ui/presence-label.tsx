import type { PresenceLabel as Label } from "@app/contract";
import { FormattedMessage } from "react-intl";

const MESSAGES: Record<NonNullable<Label>, string> = {
  online: "presence.online",
  today: "presence.today",
  week: "presence.week",
};
/** Whole class names (the build's CSS purge keeps only names it finds in the source). */
const DOTS: Record<NonNullable<Label>, string> = {
  online: "presence-dot-online",
  today: "presence-dot-today",
  week: "presence-dot-week",
};

/**
 * Issue #29: how lately a member was around ("online", "active today", "active this week"; never a
 * time), as a coloured dot and the words: the dot is decoration (hidden from assistive technology), the
 * text says it. Nothing when the server sent no label (hidden, unknown or long ago).
 */
export function PresenceLabel({ presence, className = "" }: { presence: Label | undefined; className?: string }) {
  if (!presence) return null;
  return (
    <span className={`presence-label d-inline-flex align-items-center gap-1 ${className}`} data-presence={presence}>
      <span className={`presence-dot ${DOTS[presence]}`} aria-hidden="true" />
      <FormattedMessage id={MESSAGES[presence]} />
    </span>
  );
}
