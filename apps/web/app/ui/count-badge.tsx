import { formatBadgeCount } from "@app/contract";
import { Badge } from "react-bootstrap";

/** A count capped at "99+" (spec §2), nothing at 0; `label` says what it counts to a screen reader. */
export function CountBadge({ count, label }: { count: number; label: string }) {
  if (count <= 0) return null;
  return (
    <Badge bg="danger" pill className="ms-1" aria-label={label}>
      {formatBadgeCount(count)}
    </Badge>
  );
}
