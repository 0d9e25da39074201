import { AUTO_LIKE_RELOAD_MS, type BadgesResponse, LIMITS, type LikePopupProfile } from "@app/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import {
  createContext,
  lazy,
  type ReactNode,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { FormattedMessage } from "react-intl";
import { Link } from "react-router";
import { type BadgeCounts, BadgeCountsContext } from "../../lib/badges";
import { useHeartbeat } from "../../lib/heartbeat";
import { useMountedOnceActive } from "../../lib/lazy";
import { useMember } from "../../lib/member";
import { useServerEvent, useServerResync } from "../../lib/server-events";
import { useWorkerMessage } from "../../lib/service-worker";
import { useToast } from "../../ui/toasts";
import { BADGES_KEY, LIKES_KEY } from "./keys";
import type { LikePopup } from "./like-popup";

/** The likes API (and the contract's schemas) loads with the first call, which a visitor's page never makes (decision 025). */
const likesApi = () => import("./api");

/** The pop-up's dialog loads with the first pop-up, not with every page (issue #13). */
const LikePopupModal = lazy(() => import("./like-popup").then((m) => ({ default: m.LikePopupModal })));

interface LikesContextValue {
  /** Shows the "New like" pop-up; a match already shown for this profile a moment ago is not shown again. */
  showPopup(profile: LikePopupProfile, kind: LikePopup["kind"]): void;
  /** Reloads the badges and every likes list (after the member's own like or unlike). */
  refresh(): void;
}

const LikesContext = createContext<LikesContextValue>({ showPopup: () => {}, refresh: () => {} });

export function useLikes(): LikesContextValue {
  return useContext(LikesContext);
}

/**
 * A match is announced twice to the tab that made it: by the like's answer and by the `like.match`
 * event (initiator) that every tab of the member gets. Whichever comes first shows the pop-up.
 */
const SAME_MATCH_MS = 30_000;
const NO_BADGES: BadgeCounts = { newLikes: 0, unreadMessages: 0, newVisitors: 0 };
/** Once per browser tab session: GET /api/auto-like.php was asked (the server decides whether one comes). */
const AUTO_LIKE_ASKED = "auto-like-asked";

function firstAsk(key: string): boolean {
  try {
    if (window.sessionStorage.getItem(key)) return false;
    window.sessionStorage.setItem(key, "1");
  } catch {
    // No storage (private mode): asked once per page load instead.
  }
  return true;
}

export interface LikesProviderProps {
  children: ReactNode;
  /** Delay before asking for an auto-like (spec §7's first-start delay). */
  autoLikeDelayMs?: number;
  /** The counts rendered with the page (the root loader's FirstAnswers). */
  firstBadges?: BadgesResponse | undefined;
}

/**
 * The likes state of the whole page, for a logged-in member: the top navigation's counts (GET
 * /api/badges.php, refreshed by like and badge events, by the pushes the service worker reports, and
 * with every beat of the member's polling loop, spec §7), the "New like" pop-up (matches this member
 * completed, in every open tab, and the auto-like once per session), the reload of the likes lists on
 * events, and the in-page toasts for a like or a match while the member is looking (issue #28).
 */
export function LikesProvider({ children, autoLikeDelayMs = LIMITS.firstPollDelayMs, firstBadges }: LikesProviderProps) {
  const { user } = useMember();
  const profileId = user?.profile.id ?? null;
  const queryClient = useQueryClient();
  const toast = useToast();
  // Issue #29: the counts rendered with the page start the query (no call, no API module at first);
  // events, the heartbeat and likes invalidate it, which asks the API as before.
  const badges = useQuery({
    queryKey: BADGES_KEY,
    queryFn: async () => (await likesApi()).getBadges(),
    enabled: profileId !== null,
    ...(firstBadges ? { initialData: firstBadges, staleTime: Number.POSITIVE_INFINITY } : {}),
  });

  const [queue, setQueue] = useState<LikePopup[]>([]);
  const [closing, setClosing] = useState(false);
  const shownMatches = useRef(new Map<number, number>());

  const showPopup = useCallback((profile: LikePopupProfile, kind: LikePopup["kind"]) => {
    if (kind === "match") {
      const now = Date.now();
      const shownAt = shownMatches.current.get(profile.id);
      if (shownAt !== undefined && now - shownAt < SAME_MATCH_MS) return;
      shownMatches.current.set(profile.id, now);
    }
    setQueue((current) => [...current, { profile, kind }]);
  }, []);

  const refresh = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: BADGES_KEY });
    void queryClient.invalidateQueries({ queryKey: LIKES_KEY });
  }, [queryClient]);

  useServerEvent("like.received", () => {
    refresh();
    // Issue #28: a member who is looking gets a toast instead of a push or an e-mail.
    if (document.visibilityState === "visible") {
      toast({
        variant: "info",
        body: <LinkedToast messageId="live.like_received" linkId="live.open_likes" to="/likes/received" />,
      });
    }
  });
  useServerEvent("like.changed", refresh);
  useServerEvent("like.match", (event) => {
    refresh();
    // The member who completed the match sees the pop-up; the other one a toast (never both).
    if (event.initiator) showPopup(event.profile, "match");
    else if (document.visibilityState === "visible") {
      toast({
        variant: "info",
        body: (
          <LinkedToast
            messageId="live.match"
            values={{ name: event.profile.name }}
            linkId="live.open_matches"
            to="/likes/matches"
          />
        ),
      });
    }
  });
  useServerEvent("badges.changed", () => void queryClient.invalidateQueries({ queryKey: BADGES_KEY }));
  // The other member's message raises the unread count; the server sends no badges.changed beside it.
  useServerEvent("chat.message", (event) => {
    if (!event.message.from_me) void queryClient.invalidateQueries({ queryKey: BADGES_KEY });
  });
  useServerResync(refresh);
  useHeartbeat(refresh);
  // A push arrived while this page is open (spec §7 NEW_PUSH_MESSAGE): the counts and lists reload.
  useWorkerMessage((message) => {
    if (message.type !== "NEW_PUSH_MESSAGE") return;
    if (message.payload.kind === "message") void queryClient.invalidateQueries({ queryKey: BADGES_KEY });
    else refresh();
  });

  // Spec §7 auto-like: asked once per session, a little after the start; shown as a "New like", and the
  // likes reload AUTO_LIKE_RELOAD_MS later (the server has stored the like by then).
  useEffect(() => {
    if (profileId === null) return;
    let reload: ReturnType<typeof setTimeout> | undefined;
    const timer = setTimeout(async () => {
      if (!firstAsk(`${AUTO_LIKE_ASKED}:${profileId}`)) return;
      try {
        const profile = await (await likesApi()).getAutoLike();
        if (!profile) return;
        showPopup(profile, "like");
        reload = setTimeout(refresh, AUTO_LIKE_RELOAD_MS);
      } catch {
        // No auto-like this time.
      }
    }, autoLikeDelayMs);
    return () => {
      clearTimeout(timer);
      clearTimeout(reload);
    };
  }, [profileId, autoLikeDelayMs, showPopup, refresh]);

  const counts = useMemo<BadgeCounts>(
    () =>
      profileId !== null && badges.data
        ? {
            newLikes: badges.data.new_likes,
            unreadMessages: badges.data.unread_messages,
            newVisitors: badges.data.new_visitors,
          }
        : NO_BADGES,
    [profileId, badges.data],
  );
  const value = useMemo(() => ({ showPopup, refresh }), [showPopup, refresh]);
  const popupMounted = useMountedOnceActive(queue.length > 0);
  return (
    <LikesContext.Provider value={value}>
      <BadgeCountsContext.Provider value={counts}>
        {children}
        {popupMounted ? (
          <Suspense fallback={null}>
            <LikePopupModal
              popup={queue[0]}
              show={queue.length > 0 && !closing}
              onHide={() => setClosing(true)}
              onExited={() => {
                setQueue((current) => current.slice(1));
                setClosing(false);
              }}
            />
          </Suspense>
        ) : null}
      </BadgeCountsContext.Provider>
    </LikesContext.Provider>
  );
}

/** A toast's text with the link that opens what it announces (the toast region is a polite live region). */
function LinkedToast(props: { messageId: string; values?: Record<string, string>; linkId: string; to: string }) {
  return (
    <>
      <FormattedMessage id={props.messageId} values={props.values} />{" "}
      <Link to={props.to} className="link-dark fw-semibold">
        <FormattedMessage id={props.linkId} />
      </Link>
    </>
  );
}
