import type { ReactNode } from "react";
import { useIntl } from "react-intl";
import { PageTitle } from "../../ui/page-title";

/** The frame of the payment pages: the document title and the heading (the same text), then the page. */
export function PaymentPage({
  titleId,
  values,
  wide = false,
  children,
}: {
  titleId: string;
  values?: Record<string, string | number>;
  /** The bundle grids (pricing, premium) use the full container; the forms a narrower column. */
  wide?: boolean;
  children: ReactNode;
}) {
  const intl = useIntl();
  const title = intl.formatMessage({ id: titleId }, values);
  return (
    <section className="container py-4" style={wide ? undefined : { maxWidth: 760 }}>
      <PageTitle title={title} />
      <h1 className="h2 mb-4">{title}</h1>
      {children}
    </section>
  );
}
