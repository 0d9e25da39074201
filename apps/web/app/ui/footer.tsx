import type { CompanyInfo, Settings } from "@app/contract";
import { FormattedMessage, useIntl } from "react-intl";
import { Link } from "react-router";
import { FictionalIcon } from "./fictional-icon";

const LINKS = [
  ["/pages/terms", "footer.terms"],
  ["/pages/privacy", "footer.privacy"],
  ["/pages/cookies", "footer.cookies"],
  ["/pages/ban", "footer.ban"],
  ["/pricing", "footer.pricing"],
  ["/complaints", "footer.complaints"],
  ["/pages/return-policy", "footer.return_policy"],
  ["/pages/faq", "footer.faq"],
  ["/pages/service", "footer.support"],
] as const;

/** Footer (spec §2): the policy links, the rights line for 2025, the fictional-profile disclaimer and, in English only, the US footer. */
export function Footer({ settings, company, locale }: { settings: Settings; company: CompanyInfo; locale: string }) {
  const intl = useIntl();
  return (
    <footer className="bg-dark text-light pt-4 pb-3 mt-5" data-bs-theme="dark">
      <div className="container">
        <nav aria-label={intl.formatMessage({ id: "footer.links" })}>
          <ul className="list-inline mb-3">
            {LINKS.map(([to, id]) => (
              <li key={to} className="list-inline-item me-3 mb-2">
                <Link to={to} className="link-light link-opacity-75 link-opacity-100-hover">
                  <FormattedMessage id={id} />
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <p className="small text-light-emphasis mb-2" id="disclaimer">
          <FictionalIcon name={settings.fictional_icon} className="me-1" /> {settings.fictional_warning}
        </p>
        <p className="small text-light-emphasis mb-2">
          <FormattedMessage id="footer.refund" values={{ refund_days: settings.refund_days }} />
        </p>
        <p className="small text-light-emphasis mb-1">
          <FormattedMessage
            id="footer.company"
            values={{ company: company.name, address: company.address, city: company.city, kvk: company.kvk }}
          />
        </p>
        <p className="small mb-0">
          <FormattedMessage id="footer.rights" values={{ year: 2025, company: company.name }} />
        </p>
        {locale === "en" ? (
          <p className="small mt-2 mb-0" id="us-footer">
            <Link to="/pages/2257-compliance-statement" className="link-light link-opacity-75">
              <FormattedMessage id="footer.us_2257" />
            </Link>
          </p>
        ) : null}
      </div>
    </footer>
  );
}
