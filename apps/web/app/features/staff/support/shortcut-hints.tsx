import { FormattedMessage } from "react-intl";

/** The page's keyboard shortcuts, shown under its heading: each key with what it does. */
export function ShortcutHints({ keys }: { keys: readonly (readonly [key: string, label: string])[] }) {
  return (
    <p className="small text-body-secondary d-flex flex-wrap gap-3">
      {keys.map(([key, label]) => (
        <span key={key}>
          {key.split(" ").map((k) => (
            <kbd key={k} className="me-1">
              {k}
            </kbd>
          ))}
          <FormattedMessage id={label} />
        </span>
      ))}
    </p>
  );
}
