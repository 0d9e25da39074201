import { useEffect, useState } from "react";

/** True when the site runs as an installed app (display-mode: standalone), known only after hydration. */
export function useStandalone(): boolean {
  const [standalone, setStandalone] = useState(false);
  useEffect(() => {
    const query = window.matchMedia?.("(display-mode: standalone)");
    const nav = window.navigator as Navigator & { standalone?: boolean };
    setStandalone(!!query?.matches || nav.standalone === true);
  }, []);
  return standalone;
}

/** False during server rendering and the first client render, true after hydration. */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
