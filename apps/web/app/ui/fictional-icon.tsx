import { useIntl } from "react-intl";

/** The mark of fictional profiles (settings.fictional_icon); "masks" is the only icon so far. */
export function FictionalIcon({ name, className, labelled = false }: { name: string; className?: string; labelled?: boolean }) {
  const intl = useIntl();
  const label = intl.formatMessage({ id: "fictional.badge" });
  const glyph = name === "masks" ? "🎭" : "✱";
  return labelled ? (
    <span className={className} role="img" aria-label={label} title={label}>
      {glyph}
    </span>
  ) : (
    <span className={className} aria-hidden="true">
      {glyph}
    </span>
  );
}
