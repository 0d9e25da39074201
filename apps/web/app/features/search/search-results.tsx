import type { MemberSearchQuery, MemberSearchResponse } from "@app/contract";
import { FormattedMessage } from "react-intl";
import { Link } from "react-router";
import { PageLinks } from "../../ui/pagination";
import { ProfileGrid } from "../../ui/profile-card";
import { searchHref } from "./search-query";

/** The answer of a search: how many, the cards, the pages, and similar members when few matched. */
export function SearchResults({ query, result }: { query: MemberSearchQuery; result: MemberSearchResponse }) {
  return (
    <>
      <section aria-labelledby="search-results-heading">
        <h2 id="search-results-heading" className="h5 mb-3">
          {result.numResultsCapped ? (
            <FormattedMessage id="search.results_capped" values={{ count: result.numResults }} />
          ) : (
            <FormattedMessage id="search.results" values={{ count: result.numResults }} />
          )}
        </h2>
        {result.profiles.length > 0 ? (
          <ProfileGrid profiles={result.profiles} leading />
        ) : (
          <p className="text-body-secondary">
            {result.numResults > 0 ? (
              result.numResultsCapped && result.page > result.pages ? (
                // Pages past the counted cap answer no members (decision 018).
                <FormattedMessage
                  id="search.page_beyond_cap"
                  values={{ count: result.numResults, first: (chunks) => <Link to={searchHref(query, 1)}>{chunks}</Link> }}
                />
              ) : (
                <FormattedMessage
                  id="search.page_empty"
                  values={{ first: (chunks) => <Link to={searchHref(query, 1)}>{chunks}</Link> }}
                />
              )
            ) : (
              <FormattedMessage id="search.empty" />
            )}
          </p>
        )}
        <PageLinks page={result.page} pages={result.pages} href={(target) => searchHref(query, target)} />
      </section>
      {result.similar.length > 0 ? (
        <section aria-labelledby="search-similar-heading" className="mt-5">
          <h2 id="search-similar-heading" className="h5 mb-3">
            <FormattedMessage id="search.similar" />
          </h2>
          <ProfileGrid profiles={result.similar} />
        </section>
      ) : null}
    </>
  );
}
