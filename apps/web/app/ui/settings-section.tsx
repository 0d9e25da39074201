import type { ReactNode } from "react";
import { FormattedMessage } from "react-intl";

/** One card of the settings page: a titled region (`settings-<name>-heading` labels it). */
export function SettingsSection({
  name,
  titleId,
  danger = false,
  children,
}: {
  name: string;
  /** Message id of the title. */
  titleId: string;
  /** The danger zone (account deletion): red border and title. */
  danger?: boolean;
  children: ReactNode;
}) {
  const headingId = `settings-${name}-heading`;
  return (
    <section className={`card shadow-sm mb-4${danger ? " border-danger" : ""}`} aria-labelledby={headingId}>
      <div className="card-body">
        <h2 id={headingId} className={`h5${danger ? " text-danger" : ""}`}>
          <FormattedMessage id={titleId} />
        </h2>
        {children}
      </div>
    </section>
  );
}
