import type { VisitorsResponse } from "@app/contract";
import { FormattedMessage, useIntl } from "react-intl";
import { Link } from "react-router";
import { PageLinks } from "../../ui/pagination";
import { ProfileGrid } from "../../ui/profile-card";

/** Where a page of the visitors lives: /visitors, with ?page= after the first. */
export const visitorsHref = (page = 1) => `/visitors${page > 1 ? `?page=${page}` : ""}`;

/** Whole class names (the build's CSS purge keeps only names it finds in the source). */
const PLACEHOLDER_SHADES = ["visitor-placeholder-0", "visitor-placeholder-1", "visitor-placeholder-2", "visitor-placeholder-3"];

/**
 * Free members' view: blurred placeholder cards (decoration: the server sent no one's identity) and one
 * sentence with the way to premium.
 */
function LockedVisitors({ data }: { data: VisitorsResponse }) {
  return (
    <>
      <div className="alert alert-info d-flex flex-wrap align-items-center justify-content-between gap-2" role="note">
        <span>
          <FormattedMessage id="visitors.locked" values={{ count: data.total }} />
        </span>
        <Link to="/premium" className="btn btn-primary btn-sm">
          <FormattedMessage id="visitors.unlock" />
        </Link>
      </div>
      <ul className="row row-cols-2 row-cols-sm-3 row-cols-lg-6 g-3 list-unstyled" aria-hidden="true">
        {Array.from({ length: data.placeholders }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity but their place.
          <li className="col" key={i}>
            <div className="card border-0 shadow-sm overflow-hidden visitor-placeholder">
              <div className="overflow-hidden">
                <div className={`visitor-placeholder-image ${PLACEHOLDER_SHADES[i % PLACEHOLDER_SHADES.length]}`} />
              </div>
              <div className="card-body p-2">
                <div className="visitor-placeholder-line w-75 mb-1" />
                <div className="visitor-placeholder-line w-50" />
              </div>
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}

/**
 * Issue #29, profile visitors ("who viewed me"): newest first; premium members see the profiles (with
 * the date of the latest visit, and their presence), free members the count and blurred cards.
 */
export function VisitorsList({ data }: { data: VisitorsResponse }) {
  const intl = useIntl();
  return (
    <section aria-labelledby="visitors-heading">
      <h2 id="visitors-heading" className="h5 mb-3">
        <FormattedMessage id="visitors.count" values={{ count: data.total }} />
      </h2>
      {data.total === 0 ? (
        <p className="text-body-secondary">
          <FormattedMessage id="visitors.empty" />
        </p>
      ) : data.locked ? (
        <LockedVisitors data={data} />
      ) : (
        <ProfileGrid
          profiles={data.visitors}
          leading
          card={(visitor) => ({
            mark: (
              <span className="badge rounded-pill text-bg-light">
                <FormattedMessage
                  id="visitors.visited_on"
                  values={{ date: intl.formatDate(visitor.visited_at, { day: "numeric", month: "short" }) }}
                />
              </span>
            ),
          })}
        />
      )}
      <PageLinks page={data.page} pages={data.pages} href={visitorsHref} />
    </section>
  );
}
