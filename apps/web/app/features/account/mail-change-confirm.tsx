import type { User } from "@app/contract";
import { useEffect, useState } from "react";
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

type State = { kind: "busy" } | { kind: "done"; user: User | null } | { kind: "failed"; message: string; code: string };

/** /mail-change/do: confirms the new e-mail address with the link's token as soon as the page opens. */
export function MailChangeConfirm({ token }: { token: string }) {
  const intl = useIntl();
  const { user: member, setUser } = useMember();
  const memberId = member?.id ?? null;
  const [state, setState] = useState<State>(token ? { kind: "busy" } : { kind: "failed", message: "", code: "token_invalid" });
  useEffect(() => {
    if (!token) return;
    let active = true;
    confirmOnce(token).then(
      (user) => {
        if (!active) return;
        // The link may be opened where another member, or nobody, is logged in: only our own member is updated.
        if (user && user.id === memberId) setUser(user);
        setState({ kind: "done", user });
      },
      (error: unknown) => active && setState({ kind: "failed", message: errorMessage(error, intl), code: errorCode(error) }),
    );
    return () => {
      active = false;
    };
  }, [token, memberId, setUser, intl]);

  if (state.kind === "busy") {
    return (
      <p role="status">
        <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />
        <FormattedMessage id="mailchange.confirming" />
      </p>
    );
  }
  if (state.kind === "done") {
    return (
      <>
        <FormAlert variant="success">
          {state.user ? (
            <FormattedMessage id="mailchange.done" values={{ email: state.user.email }} />
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
  return (
    <>
      <FormAlert>{state.message || <FormattedMessage id="reset.link_invalid" />}</FormAlert>
      <Link to={state.code === "authentication_required" ? "/login" : "/settings"} className="btn btn-primary">
        <FormattedMessage id={state.code === "authentication_required" ? "activate.to_login" : "mailchange.to_settings"} />
      </Link>
    </>
  );
}
