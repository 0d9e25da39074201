import { useEffect, useRef } from "react";

/**
 * Text typed or a choice made before the page hydrated is in the element but not in React's state;
 * the next render would put the state's value back and lose it. This adopts the element's value once,
 * right after hydration (also catching browser autofill). Attach the returned ref to the field.
 */
export function useAdoptedValue<E extends HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>(
  value: string,
  onChange: (value: string) => void,
) {
  const ref = useRef<E>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, right after hydration.
  useEffect(() => {
    const current = ref.current?.value;
    if (current !== undefined && current !== value) onChange(current);
  }, []);
  return ref;
}
