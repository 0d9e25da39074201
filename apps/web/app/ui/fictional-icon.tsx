import { useIntl } from "react-intl";

/** Theatre masks: the mark of fictional profiles (settings.fictional_icon "masks"). Inline SVG, no font needed. */
function MasksGlyph() {
  return (
    <svg
      viewBox="0 0 24 24"
      width="1em"
      height="1em"
      fill="currentColor"
      style={{ verticalAlign: "-0.125em" }}
      aria-hidden="true"
      focusable="false"
    >
      <path d="M2 4c3 1.2 6 1.2 9 0v6c0 3.3-2 6-4.5 6S2 13.3 2 10V4Zm2.3 4.2a.9.9 0 1 0 1.8 0 .9.9 0 0 0-1.8 0Zm4.4 0a.9.9 0 1 0 1.8 0 .9.9 0 0 0-1.8 0ZM4.6 12c.9 1.3 3 1.3 3.8 0H4.6Z" />
      <path d="M13 8.5c3 1.2 6 1.2 9 0v6c0 3.3-2 6-4.5 6S13 17.8 13 14.5v-6Zm2.3 3.7a.9.9 0 1 0 1.8 0 .9.9 0 0 0-1.8 0Zm4.4 0a.9.9 0 1 0 1.8 0 .9.9 0 0 0-1.8 0Zm-3.9 4.6c.9-1.2 3-1.2 3.8 0h-3.8Z" />
    </svg>
  );
}

/** The mark of fictional profiles; `labelled` gives it an accessible name where it stands alone. */
export function FictionalIcon({ name, className, labelled = false }: { name: string; className?: string; labelled?: boolean }) {
  const intl = useIntl();
  const label = intl.formatMessage({ id: "fictional.badge" });
  const glyph = name === "masks" ? <MasksGlyph /> : <span aria-hidden="true">✱</span>;
  return labelled ? (
    <span className={className} role="img" aria-label={label} title={label}>
      {glyph}
    </span>
  ) : (
    <span className={className}>{glyph}</span>
  );
}
