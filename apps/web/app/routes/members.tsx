import { Suspense } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { Link } from "react-router";
import { SearchForm } from "../features/search/search-form";
import { searchQueryFrom } from "../features/search/search-query.server";
import { SearchResults } from "../features/search/search-results";
import { useRootData } from "../lib/root-data";
import { servicesContext } from "../server-context";
import { PageTitle } from "../ui/page-title";
import type { Route } from "./+types/members";

/**
 * The regions come with the page (the loader's); were they missing, they would load with the API
 * client and the contract's endpoint schemas (zod), which the first screen does without (issue #29).
 */
const loadRegions = () => import("../features/site/api").then((api) => api.getRegions("all"));

/**
 * /members, the post-login home: the member search of spec §3. The URL holds the search; a plain
 * visit searches with the member's own defaults. Visitors see it under the logged-out search rule of
 * spec §4; otherwise no profile reaches the browser.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const user = await services.currentUser();
  const query = searchQueryFrom(new URL(request.url).searchParams, user?.profile ?? null);
  // The server decides whether a visitor may search (spec §4); a hidden search sends no profile.
  const result = await services.searchMembers(query);
  // The chosen region by its name from the first paint (issue #29: "NL-NH" until the regions loaded).
  const regionName = query.country && query.countryregion ? services.regionName(query.country, query.countryregion) : null;
  // A visitor's "nearby" is newest first: the form offers them the orders that mean something.
  const visitor = !user;
  // The form's regions with the page: the browser would ask GET /api/regions.php at once (issue #29).
  const { regions } = services.regions();
  return result ? { visible: true as const, query, result, regionName, visitor, regions } : { visible: false as const };
}

export default function Members({ loaderData }: Route.ComponentProps) {
  const intl = useIntl();
  const root = useRootData();
  const title = intl.formatMessage({ id: "title.members" });
  return (
    <section className="container py-4">
      <PageTitle title={title} />
      <h1 className="h2 mb-3">{title}</h1>
      {!loaderData.visible ? (
        <div className="alert alert-info">
          <FormattedMessage
            id="auth.login_to_search"
            values={{
              login: (chunks) => <Link to="/login">{chunks}</Link>,
              signup: (chunks) => <Link to="/signup">{chunks}</Link>,
            }}
          />
        </div>
      ) : (
        // Each part is its own Suspense boundary: React hydrates the page's frame first and these
        // afterwards in slices it can interrupt, instead of one long task for the whole page (issue #29).
        <>
          <Suspense fallback={null}>
            <SearchForm
              query={loaderData.query}
              regionName={loaderData.regionName}
              regions={loaderData.regions}
              visitor={loaderData.visitor}
              countries={root?.settings.countries ?? []}
              fields={root?.settings.search_fields ?? []}
              loadRegions={loadRegions}
            />
          </Suspense>
          <Suspense fallback={null}>
            <SearchResults query={loaderData.query} result={loaderData.result} />
          </Suspense>
        </>
      )}
    </section>
  );
}
