import type { MemberSearchQuery, MemberSearchResponse } from "@app/contract";
import { Pagination } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { Link } from "react-router";
import { ProfileGrid } from "../../ui/profile-card";
import { pageWindow, searchHref } from "./search-query";

/** Links to the pages of a search, each keeping its filters (react-bootstrap's own labels are English only). */
export function SearchPagination({ query, page, pages }: { query: MemberSearchQuery; page: number; pages: number }) {
  const intl = useIntl();
  const items = pageWindow(page, pages);
  if (items.length === 0) return null;
  const step = (target: number, symbol: string, labelId: string, disabled: boolean) => {
    const label = intl.formatMessage({ id: labelId });
    const glyph = <span aria-hidden="true">{symbol}</span>;
    // A disabled item renders as a <span>, where aria-label is not allowed: name it with hidden text.
    return disabled ? (
      <Pagination.Item disabled>
        {glyph}
        <span className="visually-hidden">{label}</span>
      </Pagination.Item>
    ) : (
      <Pagination.Item as={Link} to={searchHref(query, target)} aria-label={label}>
        {glyph}
      </Pagination.Item>
    );
  };
  return (
    <nav aria-label={intl.formatMessage({ id: "search.pages" })} className="mt-4">
      <Pagination className="flex-wrap justify-content-center">
        {step(page - 1, "‹", "search.previous", page <= 1)}
        {items.map((p, i) =>
          p === null ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: a gap has no identity but its place
            <Pagination.Item key={`gap-${i}`} disabled aria-hidden="true">
              …
            </Pagination.Item>
          ) : p === page ? (
            <Pagination.Item key={p} active activeLabel="" aria-current="page">
              {intl.formatNumber(p)}
            </Pagination.Item>
          ) : (
            <Pagination.Item
              key={p}
              as={Link}
              to={searchHref(query, p)}
              aria-label={intl.formatMessage({ id: "search.page" }, { page: p })}
            >
              {intl.formatNumber(p)}
            </Pagination.Item>
          ),
        )}
        {step(page + 1, "›", "search.next", page >= pages)}
      </Pagination>
    </nav>
  );
}

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
        <SearchPagination query={query} page={result.page} pages={result.pages} />
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
