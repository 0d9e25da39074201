import { nameValues, type SwipeCard, type SwipeResponse, type SwipeStatus } from "@app/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type PointerEvent, useEffect, useRef, useState } from "react";
import { Alert, Button } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { Link } from "react-router";
import { errorCode, errorMessage } from "../../lib/form-errors";
import { usePurchasesAvailable } from "../../lib/purchases";
import { useRootData } from "../../lib/root-data";
import { FictionalIcon } from "../../ui/fictional-icon";
import { FormAlert } from "../../ui/form-alert";
import { LoadFailed, Loading } from "../../ui/load-state";
import { PhotoPlaceholder } from "../../ui/photo-placeholder";
import { PurchasesUnavailableNote } from "../../ui/purchases-unavailable";
import { swipeProfile, swipeQuery } from "./api";
import { useLikes } from "./likes-provider";

/** How far (px) a card must be dragged to count as a swipe; less springs back. */
export const SWIPE_THRESHOLD_PX = 90;

/** Spec §8: out of swipes or likes for the day, when they come back, and (for likes) the premium offer. */
function LimitMessage({ status }: { status: SwipeStatus }) {
  const intl = useIntl();
  const purchasesAvailable = usePurchasesAvailable();
  const time = intl.formatTime(new Date(status.resets_at), { hour: "numeric", minute: "2-digit" });
  return (
    <Alert variant="info" className="text-center" role="status">
      <p className="h5">
        <FormattedMessage id={status.limit === "swipes" ? "swipe.out_of_swipes" : "swipe.out_of_likes"} />
      </p>
      <p>
        <FormattedMessage id="swipe.resets_at" values={{ time }} />
      </p>
      {status.limit === "likes" ? (
        <>
          <p>
            <FormattedMessage id="swipe.premium_offer" />
          </p>
          {/* Decision 030: no way to premium on a site that takes no purchases. */}
          {purchasesAvailable ? (
            <Link to="/premium" className="btn btn-primary">
              <FormattedMessage id="nav.get_premium" />
            </Link>
          ) : (
            <PurchasesUnavailableNote />
          )}
        </>
      ) : null}
    </Alert>
  );
}

function LikesLeft({ status }: { status: SwipeStatus }) {
  return (
    <p className="text-center fw-semibold mb-2">
      <span aria-hidden="true" className="text-primary">
        ♥{" "}
      </span>
      {status.likes_left === null ? (
        <FormattedMessage id="swipe.likes_unlimited" />
      ) : (
        <FormattedMessage id="swipe.likes_left" values={{ count: status.likes_left }} />
      )}
    </p>
  );
}

/** The card on top: drag it sideways (pointer or touch) past the threshold to like (right) or pass (left). */
function Card({ card, onSwipe }: { card: SwipeCard; onSwipe: (like: boolean) => void }) {
  const intl = useIntl();
  const root = useRootData();
  const [dx, setDx] = useState(0);
  // The drag in refs too: pointerup can come before React has rendered the last move.
  const drag = useRef<{ start: number; dx: number } | null>(null);
  const image = card.image_url ?? card.main_image?.thumb_url ?? null;

  const down = (event: PointerEvent<HTMLElement>) => {
    if (event.button !== 0) return;
    drag.current = { start: event.clientX, dx: 0 };
    event.currentTarget.setPointerCapture?.(event.pointerId);
  };
  const move = (event: PointerEvent<HTMLElement>) => {
    if (!drag.current) return;
    drag.current.dx = event.clientX - drag.current.start;
    setDx(drag.current.dx);
  };
  const up = () => {
    if (!drag.current) return;
    const moved = drag.current.dx;
    drag.current = null;
    setDx(0);
    if (Math.abs(moved) >= SWIPE_THRESHOLD_PX) onSwipe(moved > 0);
  };

  const leaning = Math.abs(dx) >= SWIPE_THRESHOLD_PX ? (dx > 0 ? "like" : "pass") : null;
  return (
    <article
      className={`swipe-card card border-0 shadow overflow-hidden${dx === 0 ? " swipe-card-settled" : ""}`}
      aria-labelledby="swipe-name"
      style={{ transform: dx ? `translateX(${dx}px) rotate(${dx / 20}deg)` : undefined }}
      onPointerDown={down}
      onPointerMove={move}
      onPointerUp={up}
      onPointerCancel={up}
    >
      {image ? (
        <img
          src={image}
          alt={intl.formatMessage({ id: "home.photo_alt" }, nameValues(card.name))}
          className="swipe-card-image"
          draggable={false}
          width={480}
          height={600}
        />
      ) : (
        <PhotoPlaceholder name={card.name} className="swipe-card-image" />
      )}
      {leaning ? (
        <span
          className={`swipe-card-stamp badge fs-5 ${leaning === "like" ? "text-bg-primary start-0" : "text-bg-secondary end-0"}`}
          aria-hidden="true"
        >
          <FormattedMessage id={leaning === "like" ? "swipe.like" : "swipe.pass"} />
        </span>
      ) : null}
      <div className="card-body">
        <h2 id="swipe-name" className="h4 mb-1">
          {card.name}, {intl.formatNumber(card.age)}
          {card.fictional ? (
            <FictionalIcon name={root?.settings.fictional_icon ?? "masks"} labelled className="ms-2 text-primary" />
          ) : null}
        </h2>
        {card.city ? <p className="text-body-secondary mb-2">{card.city}</p> : null}
        {card.about ? <p className="swipe-card-about mb-0">{card.about}</p> : null}
      </div>
    </article>
  );
}

/**
 * The swipe game (spec §6, §8, §9): one member at a time, like or pass by the buttons, the arrow keys
 * (→ like, ← pass) or by dragging the card; the likes left today, the day's limit message with the
 * premium offer, and the "New like" pop-up when a like makes a match. The candidates and the status
 * live in the query cache; each swipe takes its card off and stores the status the server answered.
 * `initial`: the candidates the page came with (the route's loader).
 */
export function SwipeGame({ initial = null }: { initial?: SwipeResponse | null }) {
  const intl = useIntl();
  const likes = useLikes();
  const queryClient = useQueryClient();
  // The page's first candidates (rendered on the server) stand until a swipe asks for more.
  const game = useQuery(initial ? { ...swipeQuery, initialData: initial, staleTime: Number.POSITIVE_INFINITY } : swipeQuery);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const [announcement, setAnnouncement] = useState("");
  const card = game.data?.status.limit ? undefined : game.data?.profiles[0];

  const swipe = async (like: boolean) => {
    if (!card || busy) return;
    setBusy(true);
    setError("");
    try {
      const result = await swipeProfile(card.id, like);
      const next = queryClient.setQueryData<SwipeResponse>(swipeQuery.queryKey, (old) =>
        old ? { profiles: old.profiles.filter((p) => p.id !== card.id), status: result.status } : old,
      );
      setAnnouncement(intl.formatMessage({ id: like ? "swipe.liked" : "swipe.passed" }, { name: card.name }));
      if (result.match) likes.showPopup(result.match, "match");
      if (like) likes.refresh();
      // The batch is used up: ask for the next candidates.
      if (next && next.profiles.length === 0 && !next.status.limit)
        await queryClient.invalidateQueries({ queryKey: swipeQuery.queryKey });
    } catch (caught) {
      const code = errorCode(caught);
      // The limit was reached elsewhere (another tab): reload the status, which then says so.
      if (code === "swipes_exhausted" || code === "swipe_likes_exhausted") {
        await queryClient.invalidateQueries({ queryKey: swipeQuery.queryKey });
      } else {
        setError(errorMessage(caught, intl));
      }
    }
    setBusy(false);
  };

  // Arrow keys play the game, except while typing or while a dialog (the match pop-up) is open.
  const latestSwipe = useRef(swipe);
  latestSwipe.current = swipe;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "ArrowRight" && event.key !== "ArrowLeft") return;
      if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      const target = event.target instanceof Element ? event.target : null;
      if (target?.closest("input, textarea, select, [contenteditable], [role=dialog]")) return;
      if (document.querySelector(".modal.show")) return;
      event.preventDefault();
      void latestSwipe.current(event.key === "ArrowRight");
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  if (game.isPending) {
    return (
      <Loading>
        <FormattedMessage id="swipe.loading" />
      </Loading>
    );
  }
  if (game.isError) {
    return (
      <LoadFailed
        message={errorMessage(game.error, intl)}
        retry={<FormattedMessage id="likes.retry" />}
        onRetry={() => void game.refetch()}
      />
    );
  }
  const { status } = game.data;
  return (
    <div className="swipe-game mx-auto">
      <LikesLeft status={status} />
      <p role="status" className="visually-hidden">
        {announcement}
      </p>
      {status.limit ? (
        <LimitMessage status={status} />
      ) : card ? (
        <>
          <Card key={card.id} card={card} onSwipe={(like) => void swipe(like)} />
          <div className="swipe-actions d-flex justify-content-center gap-3 py-3">
            <Button
              variant="outline-dark"
              size="lg"
              className="swipe-button"
              onClick={() => void swipe(false)}
              disabled={busy}
              aria-label={intl.formatMessage({ id: "swipe.pass_label" }, { name: card.name })}
            >
              <span aria-hidden="true">✕ </span>
              <FormattedMessage id="swipe.pass" />
            </Button>
            <Button
              variant="primary"
              size="lg"
              className="swipe-button"
              onClick={() => void swipe(true)}
              disabled={busy}
              aria-label={intl.formatMessage({ id: "swipe.like_label" }, { name: card.name })}
            >
              <span aria-hidden="true">♥ </span>
              <FormattedMessage id="swipe.like" />
            </Button>
          </div>
        </>
      ) : (
        <div className="text-center">
          <p>
            <FormattedMessage id="swipe.empty" />
          </p>
          <Link to="/members" className="btn btn-primary">
            <FormattedMessage id="nav.search" />
          </Link>
        </div>
      )}
      {error ? (
        <div className="mt-3">
          <FormAlert>{error}</FormAlert>
        </div>
      ) : null}
    </div>
  );
}
