import { useEffect, useRef } from "react";

/** Keys typed into these belong to the field, never to a shortcut. */
function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

/**
 * Keyboard shortcuts of a console page: `{ j: next, k: previous, Enter: open, "/": focusSearch }`. Keys
 * typed in a field, or with Ctrl, Alt or Meta held, are left alone; Escape always reaches its handler.
 */
export function useShortcuts(handlers: Record<string, (event: KeyboardEvent) => void>): void {
  const current = useRef(handlers);
  current.current = handlers;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.altKey || event.metaKey || event.defaultPrevented) return;
      if (event.key !== "Escape" && typing(event.target)) return;
      const handler = current.current[event.key];
      if (!handler) return;
      event.preventDefault();
      handler(event);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}

/** A list's selected index moved by j/k within its length. */
export function step(index: number, by: number, length: number): number {
  if (length === 0) return 0;
  return Math.min(length - 1, Math.max(0, index + by));
}
