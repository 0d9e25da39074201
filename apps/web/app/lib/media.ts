import { useEffect, useState } from "react";

/** Bootstrap's md breakpoint (spec §9: 768 px); below it the device counts as a smartphone. */
export const SMARTPHONE_QUERY = "(max-width: 767.98px)";

export function isSmartphone(): boolean {
  return typeof window !== "undefined" && !!window.matchMedia?.(SMARTPHONE_QUERY).matches;
}

/** Whether the viewport is smartphone-sized; false on the server and before hydration. */
export function useSmartphone(): boolean {
  const [matches, setMatches] = useState(false);
  useEffect(() => {
    const query = window.matchMedia?.(SMARTPHONE_QUERY);
    if (!query) return;
    setMatches(query.matches);
    const update = () => setMatches(query.matches);
    query.addEventListener("change", update);
    return () => query.removeEventListener("change", update);
  }, []);
  return matches;
}
