import { FormattedMessage } from "react-intl";
import { Link } from "react-router";

/** Spec §2's "message" profile action: opens the conversation with the member (or starts one). */
export function MessageButton({ id, name }: { id: number; name: string }) {
  return (
    <div className="mb-3">
      <Link to={`/members/${id}/chat`} className="btn btn-primary">
        <FormattedMessage id="chat.send_message" values={{ name }} />
      </Link>
    </div>
  );
}
