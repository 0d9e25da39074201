import { useState } from "react";

/**
 * True from the first render in which `active` is true on. A dialog loaded on demand (React.lazy, so
 * that its code is not part of the first download, issue #13) mounts when first opened and then stays
 * mounted, so that it can animate out, give focus back and keep its state like an eager one.
 */
export function useMountedOnceActive(active: boolean): boolean {
  const [mounted, setMounted] = useState(active);
  if (active && !mounted) setMounted(true);
  return mounted || active;
}
