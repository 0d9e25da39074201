import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { Spinner } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { Link } from "react-router";
import { onceBy } from "../../lib/api";
import { errorCode, errorMessage } from "../../lib/form-errors";
import { useMember } from "../../lib/member";
import { FormAlert } from "../../ui/form-alert";
import { confirmMailChange } from "./api";

/** One POST per token, however often the component mounts (the token is single-use). */
const confirmOnce = onceBy(confirmMailChange);

/** /mail-change/do: confirms the new e-mail address with the link's token as soon as the page opens. */
export function MailChangeConfirm({ token }: { token: string }) {
  const intl = useIntl();
  const { user: member, setUser } = useMember();
  const memberId = member?.id ?? null;
  const confirmation = useQuery({
    queryKey: ["mail-change", token],
    queryFn: () => confirmOnce(token),
    enabled: token !== "",
    staleTime: Number.POSITIVE_INFINITY,
  });
  const confirmed = confirmation.data;
  useEffect(() => {
    // The link may be opened where another member, or nobody, is logged in: only our own member is updated.
    if (confirmed && confirmed.id === memberId) setUser(confirmed);
  }, [confirmed, memberId, setUser]);

  if (token && confirmation.isPending) {
    return (
      <p role="status">
        <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />
        <FormattedMessage id="mailchange.confirming" />
      </p>
    );
  }
  if (confirmation.isSuccess) {
    return (
      <>
        <FormAlert variant="success">
          {confirmed ? (
            <FormattedMessage id="mailchange.done" values={{ email: confirmed.email }} />
          ) : (
            <FormattedMessage id="mailchange.done_generic" />
          )}
        </FormAlert>
        <Link to="/settings" className="btn btn-primary">
          <FormattedMessage id="mailchange.to_settings" />
        </Link>
      </>
    );
  }
  const message = confirmation.error ? errorMessage(confirmation.error, intl) : "";
  const loginNeeded = confirmation.error !== null && errorCode(confirmation.error) === "authentication_required";
  return (
    <>
      <FormAlert>{message || <FormattedMessage id="reset.link_invalid" />}</FormAlert>
      <Link to={loginNeeded ? "/login" : "/settings"} className="btn btn-primary">
        <FormattedMessage id={loginNeeded ? "activate.to_login" : "mailchange.to_settings"} />
      </Link>
    </>
  );
}
