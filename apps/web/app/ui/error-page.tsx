import { FormattedMessage, useIntl } from "react-intl";
import { isRouteErrorResponse, Link } from "react-router";
import { PageTitle } from "./page-title";

/** Error page (spec §2): status code and message; 404 says the page could not be found and links home. */
export function ErrorPage({ error }: { error: unknown }) {
  const intl = useIntl();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const message =
    status === 404
      ? intl.formatMessage({ id: "error.not_found_page" })
      : isUnknownMiddleware(error)
        ? intl.formatMessage({ id: "error.unknown_middleware" })
        : isRouteErrorResponse(error) && status < 500
          ? intl.formatMessage({ id: "error.generic" })
          : intl.formatMessage({ id: "error.try_later" });
  return (
    <section className="container py-5 text-center" aria-labelledby="error-heading">
      <PageTitle title={message} />
      <p className="display-1 fw-bold text-primary mb-0" aria-hidden="true">
        {status}
      </p>
      <h1 id="error-heading" className="h3 mb-4">
        <span className="visually-hidden">
          <FormattedMessage id="error.title" values={{ status }} />:{" "}
        </span>
        {message}
      </h1>
      <Link className="btn btn-primary" to="/">
        <FormattedMessage id="error.home_link" />
      </Link>
    </section>
  );
}

/** A page that named a middleware there is none of (lib/page-middleware.ts): spec §8's 500 "Unknown middleware". */
function isUnknownMiddleware(error: unknown): boolean {
  return (
    isRouteErrorResponse(error) &&
    typeof error.data === "object" &&
    error.data !== null &&
    (error.data as { error?: unknown }).error === "unknown_middleware"
  );
}
