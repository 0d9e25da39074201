import type { Discount, TimeBonus } from "@app/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { createContext, type ReactNode, useContext, useEffect, useState } from "react";
import { useHydrated } from "../../lib/display-mode";
import { useMember } from "../../lib/member";
import type { FirstAnswers } from "../../lib/root-data";
import { monotonicNow, type Received, secondsLeftAt } from "./countdown";
import { DISCOUNTS_KEY } from "./keys";
import { timeBonusQuery, welcomeDiscountQuery } from "./queries";

/** The discount the site advertises to the member right now (spec §4). */
export interface ShownDiscount {
  kind: "time_bonus" | "welcome";
  code: string;
  value_percentage: number;
  /** Seconds left now, ticking down every second; null for a discount without an end. */
  secondsLeft: number | null;
}

interface DiscountState {
  /** Spec §4: "the discount shown is the time bonus if present, otherwise the welcome discount code". */
  shown: ShownDiscount | null;
  /** The time bonus while it is visible (the banner and the modal). */
  timeBonus: ShownDiscount | null;
  /** Whether `shown` is the member's (loaded, or none to load): false on the server and until the loads answer. */
  settled: boolean;
}

const DiscountContext = createContext<DiscountState>({ shown: null, timeBonus: null, settled: false });

/** The time bonus if present, otherwise the welcome discount, else null; ticking. */
export function useShownDiscount(): ShownDiscount | null {
  return useContext(DiscountContext).shown;
}

/**
 * Whether the shown discount is known yet: until then a page rendered on the server with the member's
 * discount (the checkout, issue #29) keeps showing that one rather than none.
 */
export function useDiscountsSettled(): boolean {
  return useContext(DiscountContext).settled;
}

/** The member's time bonus while it is visible, ticking; null otherwise. */
export function useTimeBonus(): ShownDiscount | null {
  return useContext(DiscountContext).timeBonus;
}

/**
 * Re-renders at each whole second counted from `anchor` (the moment the followed countdown's answer
 * arrived, on the monotonic clock), so that the display changes exactly when a second has passed.
 * Does nothing while `anchor` is null.
 */
function useSecondTicks(anchor: number | null, setNow: (now: number) => void): void {
  useEffect(() => {
    if (anchor === null) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = () => {
      const at = monotonicNow();
      setNow(at);
      timer = setTimeout(tick, 1000 - (Math.max(0, at - anchor) % 1000));
    };
    tick();
    return () => clearTimeout(timer);
  }, [anchor, setNow]);
}

function timeBonusNow(answer: Received<TimeBonus | null> | undefined, now: number): ShownDiscount | null {
  if (!answer?.value) return null;
  const secondsLeft = secondsLeftAt(answer.value.seconds_left, answer.receivedAt, now);
  // Spec §4: cleared at zero.
  if (secondsLeft <= 0) return null;
  return { kind: "time_bonus", code: answer.value.code, value_percentage: answer.value.value_percentage, secondsLeft };
}

function welcomeNow(answer: Received<Discount | null> | undefined, now: number): ShownDiscount | null {
  if (!answer?.value) return null;
  const { code, value_percentage, seconds_left } = answer.value;
  if (seconds_left === null) return { kind: "welcome", code, value_percentage, secondsLeft: null };
  const secondsLeft = secondsLeftAt(seconds_left, answer.receivedAt, now);
  return secondsLeft > 0 ? { kind: "welcome", code, value_percentage, secondsLeft } : null;
}

/**
 * Loads the member's time bonus (spec §7: on login, or on the first load while logged in) and, when
 * there is none, the welcome discount; drops both on logout; and ticks their countdowns once a
 * second. Only for a logged-in member who has not paid (spec §4, §6: "premium members get no time
 * bonus"): a member who becomes paid (the member context reloads on the server's `user.changed`)
 * loses it at once. Nothing shows during server rendering and the first client render, so the
 * markup hydrates as it was rendered. Nor where `purchasesAvailable` is false (the settings' flag, passed
 * by the root): a discount on a site without a payment provider invites a purchase it cannot take
 * (issue #25, decision 030).
 */
export function DiscountProvider({
  children,
  purchasesAvailable = true,
  rendered,
}: {
  children: ReactNode;
  purchasesAvailable?: boolean;
  /** The answers rendered with the page (the root loader's). */
  rendered?: FirstAnswers | null;
}) {
  const { user } = useMember();
  const hydrated = useHydrated();
  const queryClient = useQueryClient();
  const userId = user?.id ?? null;
  const eligible = hydrated && purchasesAvailable && user !== null && !user.paid_user;

  // Spec §7: "cleared on logout". The next member (or the same one logging in again) loads afresh.
  useEffect(() => {
    if (userId === null) queryClient.removeQueries({ queryKey: DISCOUNTS_KEY });
  }, [userId, queryClient]);

  const [now, setNow] = useState(monotonicNow);
  // Issue #29: the answers rendered with the page start the queries (no call, no API module at first).
  // They arrived before the page's clock started (0 on monotonicNow's), so the countdown never runs long.
  const bonusQuery = useQuery({
    ...timeBonusQuery(userId ?? 0),
    enabled: eligible,
    ...(rendered?.timeBonus ? { initialData: { value: rendered.timeBonus.time_bonus, receivedAt: 0 } } : {}),
  });
  const timeBonus = eligible ? timeBonusNow(bonusQuery.data, now) : null;
  // Spec §4: the welcome discount is shown only when there is no time bonus (none, failed, or run out).
  const welcomeQuery = useQuery({
    ...welcomeDiscountQuery(userId ?? 0),
    enabled: eligible && (bonusQuery.isFetched || bonusQuery.isSuccess) && timeBonus === null,
    ...(rendered?.welcomeDiscount ? { initialData: { value: rendered.welcomeDiscount.discount, receivedAt: 0 } } : {}),
  });
  const welcome = eligible && timeBonus === null ? welcomeNow(welcomeQuery.data, now) : null;

  // The ticks follow the visible time bonus, else a welcome discount with an end, else stop.
  let anchor: number | null = null;
  if (timeBonus) anchor = bonusQuery.data?.receivedAt ?? null;
  else if (welcome?.secondsLeft != null) anchor = welcomeQuery.data?.receivedAt ?? null;
  useSecondTicks(anchor, setNow);

  const shown = timeBonus ?? welcome;
  const settled = hydrated && (!eligible || (bonusQuery.isFetched && (timeBonus !== null || welcomeQuery.isFetched)));
  // A new value at most once a second (the ticks) or when an answer or the member changes.
  return <DiscountContext.Provider value={{ shown, timeBonus, settled }}>{children}</DiscountContext.Provider>;
}
