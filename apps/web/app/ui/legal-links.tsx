import { FormattedMessage, useIntl } from "react-intl";
import { Link } from "react-router";

/** Terms, privacy and cookies: the legal links of the pages without the site's footer (landers, member landings). */
export function LegalLinks({ className }: { className?: string }) {
  const intl = useIntl();
  return (
    <nav className={className} aria-label={intl.formatMessage({ id: "footer.links" })}>
      <Link to="/pages/terms">
        <FormattedMessage id="footer.terms" />
      </Link>
      <Link to="/pages/privacy">
        <FormattedMessage id="footer.privacy" />
      </Link>
      <Link to="/pages/cookies">
        <FormattedMessage id="footer.cookies" />
      </Link>
    </nav>
  );
}
