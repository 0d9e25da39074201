import { type LikeState, nameValues } from "@app/contract";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { Button, Modal } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { Link, useSearchParams } from "react-router";
import { errorMessage } from "../../lib/form-errors";
import { useServerEvent } from "../../lib/server-events";
import { BusyButton } from "../../ui/busy-button";
import { FormAlert } from "../../ui/form-alert";
import { likeProfile, unlikeProfile } from "./api";
import { useLikes } from "./likes-provider";

/** The like prompt waits at most this long (`?t=` is seconds, spec §9). */
const MAX_PROMPT_DELAY_S = 3600;

/** Spec §9: `?t=N` on a profile delays the like modal by N seconds; without it the modal does not come. */
export function promptDelayMs(search: URLSearchParams): number | null {
  const raw = search.get("t");
  if (raw === null || !/^\d{1,7}$/.test(raw)) return null;
  return Math.min(Number(raw), MAX_PROMPT_DELAY_S) * 1000;
}

/** Whether the member can still like (nothing from them yet): the like prompt and the primary button. */
const canLike = (state: LikeState) => state === "none" || state === "received";

function useLikePrompt(wanted: boolean): [boolean, (open: boolean) => void] {
  const [search] = useSearchParams();
  const delay = promptDelayMs(search);
  const [open, setOpen] = useState(false);
  const stillWanted = useRef(wanted);
  stillWanted.current = wanted;
  useEffect(() => {
    if (delay === null) return;
    const timer = setTimeout(() => {
      if (stillWanted.current) setOpen(true);
    }, delay);
    return () => clearTimeout(timer);
  }, [delay]);
  return [open, setOpen];
}

function LikePromptModal({
  name,
  show,
  onHide,
  children,
}: {
  name: string;
  show: boolean;
  onHide: () => void;
  children: ReactNode;
}) {
  const intl = useIntl();
  return (
    <Modal show={show} onHide={onHide} centered aria-labelledby="like-prompt-title">
      <Modal.Header closeButton closeLabel={intl.formatMessage({ id: "alerts.close" })}>
        <Modal.Title id="like-prompt-title">
          <FormattedMessage id="likes.prompt_title" values={{ name }} />
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <FormattedMessage id="likes.prompt_body" values={{ name }} />
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onHide}>
          <FormattedMessage id="likes.prompt_later" />
        </Button>
        {children}
      </Modal.Footer>
    </Modal>
  );
}

/**
 * Visitors: liking needs an account (spec §6), so the action is a way to the login, and so is the prompt.
 * `button: false`: only the `?t=N` prompt (spec §9), where the page has one call to action of its own
 * (a visitor's profile page, issue #29).
 */
export function LoginToLike({ name, button = true }: { name: string; button?: boolean }) {
  const [prompt, setPrompt] = useLikePrompt(true);
  const login = (
    <Link to="/login" className="btn btn-primary">
      <span aria-hidden="true">♥ </span>
      <FormattedMessage id="likes.login" values={nameValues(name)} />
    </Link>
  );
  return (
    <div className={button ? "mb-3" : undefined}>
      {button ? login : null}
      <LikePromptModal name={name} show={prompt} onHide={() => setPrompt(false)}>
        {login}
      </LikePromptModal>
    </div>
  );
}

const STATE_MESSAGES: Record<Exclude<LikeState, "none">, string> = {
  liked: "likes.state_liked",
  received: "likes.state_received",
  match: "likes.state_match",
};

export interface LikeActionsProps {
  profile: { id: number; name: string };
  /** The like between the member and this profile (GET /api/member.php's `like`). */
  state: LikeState;
}

/**
 * The profile action bar's like (spec §2, §4): Like, Like back (they liked the member), or Unlike, with
 * the state in words. A like that completes a match shows the "New like" pop-up. Other tabs and the
 * other member's likes reach it as events. `?t=N` offers the like in a modal after N seconds (spec §9).
 */
export function LikeActions({ profile, state: loadedState }: LikeActionsProps) {
  const intl = useIntl();
  const likes = useLikes();
  const [state, setState] = useState(loadedState);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const [prompt, setPrompt] = useLikePrompt(canLike(state));

  // The page's data was loaded again (revalidation): that answer is the newer one.
  useEffect(() => setState(loadedState), [loadedState]);
  useServerEvent("like.changed", (event) => {
    if (event.profile_id === profile.id) setState(event.state);
  });
  useServerEvent("like.match", (event) => {
    if (event.profile.id === profile.id) setState("match");
  });
  useServerEvent("like.received", (event) => {
    if (event.profile_id === profile.id) setState((current) => (current === "none" ? "received" : current));
  });

  const change = async (like: boolean) => {
    setBusy(true);
    setError("");
    try {
      const answer = like ? await likeProfile(profile.id) : await unlikeProfile(profile.id);
      setState(answer.state);
      if (answer.match) likes.showPopup(answer.match, "match");
      likes.refresh();
    } catch (caught) {
      setError(errorMessage(caught, intl));
    }
    setBusy(false);
    setPrompt(false);
  };

  const values = { name: profile.name };
  const likeLabel = state === "received" ? "likes.like_back" : "likes.action";
  return (
    <div className="mb-3">
      <p role="status" className={state === "none" ? "visually-hidden" : "mb-2 fw-semibold text-primary"}>
        {state === "none" ? null : (
          <>
            <span aria-hidden="true">{state === "match" ? "♥♥ " : "♥ "}</span>
            <FormattedMessage id={STATE_MESSAGES[state]} values={values} />
          </>
        )}
      </p>
      {canLike(state) ? (
        <BusyButton variant="primary" onClick={() => change(true)} busy={busy}>
          <span aria-hidden="true">♥ </span>
          <FormattedMessage id={likeLabel} values={values} />
        </BusyButton>
      ) : (
        <BusyButton variant="outline-primary" size="sm" onClick={() => change(false)} busy={busy}>
          <FormattedMessage id="likes.unlike" values={values} />
        </BusyButton>
      )}
      {error ? (
        <div className="mt-2">
          <FormAlert>{error}</FormAlert>
        </div>
      ) : null}
      <LikePromptModal name={profile.name} show={prompt && canLike(state)} onHide={() => setPrompt(false)}>
        <BusyButton variant="primary" onClick={() => change(true)} busy={busy}>
          <FormattedMessage id="likes.prompt_like" values={values} />
        </BusyButton>
      </LikePromptModal>
    </div>
  );
}
