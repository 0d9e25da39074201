import { type KeyboardEvent, type PointerEvent, useEffect, useRef, useState } from "react";
import { FormattedMessage } from "react-intl";
import { loadLander } from "../../features/landers/load.server";
import { NEEDS_APP } from "../../lib/deferred-scripts";
import { servicesContext } from "../../server-context";
import type { Route } from "./+types/tinderswipe";
import { LanderFooter, LanderHead, landerHandle, MemberPhoto, SignupCta } from "./kit";

export const handle = landerHandle;

/** Cards a visitor swipes before the call to sign up appears. */
const CARDS = 4;
/** How far (px) a card must be dragged to count as a swipe. */
const DRAG_THRESHOLD = 80;

/** /landers/tinderswipe: swipe a few members (buttons, drag or arrow keys), then the call to sign up. */
export function loader({ context, request }: Route.LoaderArgs) {
  return loadLander(context.get(servicesContext), request, "tinderswipe", undefined);
}

export default function TinderSwipe({ loaderData: data }: Route.ComponentProps) {
  const cards = data.profiles.slice(0, CARDS);
  const [index, setIndex] = useState(0);
  const [liked, setLiked] = useState(0);
  const [drag, setDrag] = useState(0);
  const start = useRef<number | null>(null);
  const done = index >= cards.length;
  const doneHeading = useRef<HTMLHeadingElement>(null);
  // Once the last card is gone, focus moves to the call (the buttons it came from are gone too).
  useEffect(() => {
    if (done && index > 0) doneHeading.current?.focus();
  }, [done, index]);

  const swipe = (like: boolean) => {
    if (done) return;
    if (like) setLiked((n) => n + 1);
    setDrag(0);
    setIndex((i) => i + 1);
  };
  const onKey = (event: KeyboardEvent) => {
    if (event.key === "ArrowRight") swipe(true);
    else if (event.key === "ArrowLeft") swipe(false);
    else return;
    event.preventDefault();
  };
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    start.current = event.clientX;
    event.currentTarget.setPointerCapture(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent) => {
    if (start.current !== null) setDrag(event.clientX - start.current);
  };
  const onPointerUp = () => {
    if (start.current === null) return;
    start.current = null;
    if (Math.abs(drag) >= DRAG_THRESHOLD) swipe(drag > 0);
    else setDrag(0);
  };
  const card = cards[index];

  return (
    <div className="ld ld-swipe">
      <LanderHead data={data} />
      <header className="ld-head">
        <h1>{data.headline}</h1>
        <p className="ld-lead">
          <FormattedMessage id="lander.tinderswipe.lead" />
        </p>
      </header>
      {card && !done ? (
        <section className="ld-deck" onKeyDown={onKey} aria-labelledby="ld-deck-hint">
          <p id="ld-deck-hint" className="ld-hint">
            <FormattedMessage id="lander.tinderswipe.hint" />
          </p>
          <div
            className="ld-card"
            style={{ transform: `translateX(${drag}px) rotate(${drag / 20}deg)` }}
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerUp}
            onPointerCancel={onPointerUp}
            data-testid="swipe-card"
            // Pointing at or touching the card loads the app (decision 028); a drag begun before it is here is not replayed.
            {...{ [NEEDS_APP]: "" }}
          >
            <MemberPhoto key={card.id} profile={card} priority={index === 0} />
          </div>
          <p className="ld-count" aria-live="polite">
            <FormattedMessage id="lander.tinderswipe.count" values={{ current: index + 1, total: cards.length }} />
          </p>
          <div className="ld-swipe-buttons">
            <button type="button" className="btn btn-outline-secondary btn-lg" onClick={() => swipe(false)}>
              <span aria-hidden="true">✕ </span>
              <FormattedMessage id="lander.tinderswipe.pass" />
            </button>
            <button type="button" className="btn btn-primary btn-lg" onClick={() => swipe(true)}>
              <span aria-hidden="true">♥ </span>
              <FormattedMessage id="lander.tinderswipe.like" />
            </button>
          </div>
        </section>
      ) : (
        <section className="ld-swipe-done" aria-labelledby="ld-swipe-done-title">
          <h2 id="ld-swipe-done-title" ref={doneHeading} tabIndex={-1}>
            <FormattedMessage id="lander.tinderswipe.done_title" values={{ count: liked }} />
          </h2>
          <p>
            <FormattedMessage id="lander.tinderswipe.done_body" />
          </p>
          <SignupCta />
        </section>
      )}
      <LanderFooter profiles={data.profiles} />
    </div>
  );
}
