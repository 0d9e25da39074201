import { LIMITS } from "@app/contract";
import { useEffect, useRef, useState } from "react";
import { useIntl } from "react-intl";
import { useNavigation } from "react-router";

const { durationMs, throttleMs, hideDelayMs } = LIMITS.progressBar;

/**
 * Navigation progress bar (spec §9): appears only if a navigation takes longer than 200 ms, creeps
 * towards 100% over 5 s, completes when the page is ready and hides 500 ms later.
 */
export function ProgressBar() {
  const intl = useIntl();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const [percent, setPercent] = useState<number | null>(null);
  const started = useRef(0);

  useEffect(() => {
    if (busy) {
      const show = setTimeout(() => {
        started.current = Date.now();
        setPercent(5);
      }, throttleMs);
      const tick = setInterval(() => {
        if (!started.current) return;
        const elapsed = Date.now() - started.current;
        setPercent(Math.min(95, 5 + (elapsed / durationMs) * 90));
      }, 100);
      return () => {
        clearTimeout(show);
        clearInterval(tick);
      };
    }
    if (!started.current) return;
    started.current = 0;
    setPercent(100);
    const hide = setTimeout(() => setPercent(null), hideDelayMs);
    return () => clearTimeout(hide);
  }, [busy]);

  if (percent === null) return null;
  return (
    <div
      className="navigation-progress"
      role="progressbar"
      aria-label={intl.formatMessage({ id: "progress.label" })}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(percent)}
      style={{ width: `${percent}%`, opacity: percent >= 100 ? 0 : 1 }}
    />
  );
}
