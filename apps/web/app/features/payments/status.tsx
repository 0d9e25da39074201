import type { PaymentStatus } from "@app/contract";
import { Badge } from "react-bootstrap";
import { FormattedMessage } from "react-intl";

/** A payment's status in words (spec §4). */
const STATUS_WORDS: Record<PaymentStatus, string> = {
  created: "payments.status_created",
  pending: "payments.status_pending",
  paid: "payments.status_paid",
  failed: "payments.status_failed",
  cancelled: "payments.status_cancelled",
  expired: "payments.status_expired",
  refunded: "payments.status_refunded",
  charged_back: "payments.status_charged_back",
};

const STATUS_COLOURS: Record<PaymentStatus, { bg: string; text?: "dark" }> = {
  created: { bg: "secondary" },
  pending: { bg: "warning", text: "dark" },
  paid: { bg: "success" },
  failed: { bg: "danger" },
  cancelled: { bg: "secondary" },
  expired: { bg: "secondary" },
  refunded: { bg: "info", text: "dark" },
  charged_back: { bg: "dark" },
};

export function StatusBadge({ status }: { status: PaymentStatus }) {
  const colour = STATUS_COLOURS[status];
  return (
    <Badge bg={colour.bg} text={colour.text} pill>
      <FormattedMessage id={STATUS_WORDS[status]} />
    </Badge>
  );
}
