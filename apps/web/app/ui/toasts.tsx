import { createContext, type ReactNode, useCallback, useContext, useEffect, useRef, useState } from "react";
import { useIntl } from "react-intl";

export interface ToastInput {
  body: ReactNode;
  variant?: "success" | "danger" | "info";
  /** How long it stays (ms); paused while the pointer or the focus is on it. */
  delayMs?: number;
}

interface ShownToast extends Required<ToastInput> {
  id: number;
}

const ToastContext = createContext<(toast: ToastInput) => void>(() => {});

/** Shows a short message in the corner (the page's toasts; a no-op outside ToastProvider). */
export function useToast(): (toast: ToastInput) => void {
  return useContext(ToastContext);
}

/**
 * The page's toasts (spec §4: "Order #{id} is completed"). The corner is one polite live region that
 * is always in the page, so that screen readers announce a toast when it is added without taking
 * the focus. Each toast hides by itself after its delay (paused while hovered or focused) or with its
 * close button. Bootstrap's toast styles, without react-bootstrap's Toast, which forces an assertive
 * `role="alert"` on every toast.
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ShownToast[]>([]);
  const nextId = useRef(0);
  const show = useCallback((toast: ToastInput) => {
    const id = ++nextId.current;
    setToasts((current) => [...current, { variant: "success", delayMs: 8_000, ...toast, id }]);
  }, []);
  const hide = useCallback((id: number) => setToasts((current) => current.filter((toast) => toast.id !== id)), []);
  return (
    <ToastContext.Provider value={show}>
      {children}
      {/* react-bootstrap's ToastContainer and CloseButton markup, written out: every page renders this
          provider, and their modules are not worth their weight in the first download (issue #13). */}
      <div className="toast-container position-fixed bottom-0 end-0 p-3" aria-live="polite" aria-atomic="false">
        {toasts.map((toast) => (
          <ToastItem key={toast.id} toast={toast} onHide={hide} />
        ))}
      </div>
    </ToastContext.Provider>
  );
}

/** Literal class names, so that the production stylesheet keeps them (css-purge.ts). */
const VARIANT_CLASSES: Record<Required<ToastInput>["variant"], string> = {
  success: "text-bg-success",
  danger: "text-bg-danger",
  info: "text-bg-info",
};

function ToastItem({ toast, onHide }: { toast: ShownToast; onHide: (id: number) => void }) {
  const intl = useIntl();
  const [paused, setPaused] = useState(false);
  useEffect(() => {
    if (paused) return;
    const timer = setTimeout(() => onHide(toast.id), toast.delayMs);
    return () => clearTimeout(timer);
  }, [paused, toast.id, toast.delayMs, onHide]);
  const dark = toast.variant !== "info";
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: only a link's click is handled, which Enter on the link fires too.
    <div
      role="status"
      aria-atomic="true"
      className={`toast show border-0 ${VARIANT_CLASSES[toast.variant]}`}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
      // A toast whose link was followed has done its work (a link opens the conversation it announced).
      // After the link's own handler (bubbling), which navigates within the app while the link is there.
      onClick={(event) => {
        if (event.target instanceof Element && event.target.closest("a[href]")) onHide(toast.id);
      }}
    >
      <div className="d-flex align-items-start">
        <div className="toast-body flex-grow-1">{toast.body}</div>
        <button
          type="button"
          className={`btn-close me-2 mt-2${dark ? " btn-close-white" : ""}`}
          aria-label={intl.formatMessage({ id: "toast.close" })}
          onClick={() => onHide(toast.id)}
        />
      </div>
    </div>
  );
}
