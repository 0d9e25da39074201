import { createContext, type ReactNode, useCallback, useContext, useEffect, useId, useMemo, useState } from "react";

/**
 * The default layout's alerts and the time-bonus popup, most important first (issue #29: a new
 * member met the activation reminder, the add-photos alert, the time-bonus banner and then the
 * popup all at once). Each shows under spec §2's own conditions, and only while no more important
 * one is showing: dismissing (or settling) one brings the next. The banner and the popup are one
 * offer and share a rank; the popup's 40 s count from when it is the front.
 */
export const WARNING_RANK = {
  activation: 1,
  disabledNotifications: 2,
  addPhotos: 3,
  // A one-click question, gone once answered; the banner stays for the bonus's four hours.
  push: 4,
  timeBonus: 5,
} as const;

type Claims = { set(id: string, rank: number | null): void; ranks: ReadonlyMap<string, number> };

const WarningsContext = createContext<Claims | null>(null);

/** Holds the layout's claims; without it (a feature's unit test) every warning is the front. */
export function WarningsProvider({ children }: { children: ReactNode }) {
  const [ranks, setRanks] = useState<ReadonlyMap<string, number>>(() => new Map());
  // Stable, so that a claim's effect does not run again whenever another claim changes.
  const set = useCallback((id: string, rank: number | null) => {
    setRanks((current) => {
      if ((current.get(id) ?? null) === rank) return current;
      const next = new Map(current);
      if (rank === null) next.delete(id);
      else next.set(id, rank);
      return next;
    });
  }, []);
  const value = useMemo<Claims>(() => ({ ranks, set }), [ranks, set]);
  return <WarningsContext.Provider value={value}>{children}</WarningsContext.Provider>;
}

/**
 * `wants`: this warning's own conditions hold (and it is not dismissed). Answers whether it may show
 * now: it wants to and no warning of a more important rank does. The server's HTML and the first
 * render after hydration show every warning that wants to (no claims yet), so they agree; the
 * claims, made after hydration, then leave the front one.
 */
export function useWarningSlot(rank: number, wants: boolean): boolean {
  const claims = useContext(WarningsContext);
  const id = useId();
  const set = claims?.set;
  useEffect(() => {
    if (!set) return;
    set(id, wants ? rank : null);
    return () => set(id, null);
  }, [set, id, rank, wants]);
  if (!wants) return false;
  if (!claims) return true;
  for (const other of claims.ranks.values()) if (other < rank) return false;
  return true;
}
