import {
  DEFAULT_SEARCH_SORT,
  type MemberSearchQuery,
  type Region,
  SEARCH_SORTS,
  type SearchSort,
  type Settings,
} from "@app/contract";
import { type FormEvent, useId, useState } from "react";
import { Button, Form } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { useNavigate } from "react-router";
import { type RegionsLoader, useRegions } from "../../lib/reference-data";
import { SelectField } from "../../ui/select-field";
import { SEARCH_AGES, searchHref } from "./search-query";

type SearchField = Settings["search_fields"][number];

/** The form's fields as the controls hold them ("" is "any"). */
export interface SearchValues {
  gender: string;
  country: string;
  countryregion: string;
  min_age: string;
  max_age: string;
  /** The order (issue #29): nearby, newest or online. */
  sort: SearchSort;
  /** "1" when only members online now are shown, else "". */
  online: string;
}

export function valuesOf(query: MemberSearchQuery): SearchValues {
  return {
    gender: query.gender ?? "",
    country: query.country ?? "",
    countryregion: query.country ? (query.countryregion ?? "") : "",
    min_age: query.min_age === undefined ? "" : String(query.min_age),
    max_age: query.max_age === undefined ? "" : String(query.max_age),
    sort: query.sort ?? DEFAULT_SEARCH_SORT,
    online: query.online ? "1" : "",
  };
}

/** The search the controls describe: a region only within its country, ages in the right order. */
export function queryOf(values: SearchValues): MemberSearchQuery {
  const query: MemberSearchQuery = {};
  if (values.gender === "male" || values.gender === "female") query.gender = values.gender;
  if (values.country) {
    query.country = values.country;
    if (values.countryregion) query.countryregion = values.countryregion;
  }
  const ages = [values.min_age, values.max_age].map((v) => (v ? Number(v) : undefined));
  let [min, max] = ages;
  if (min !== undefined && max !== undefined && min > max) [min, max] = [max, min];
  if (min !== undefined) query.min_age = min;
  if (max !== undefined) query.max_age = max;
  if (values.sort !== DEFAULT_SEARCH_SORT) query.sort = values.sort;
  if (values.online) query.online = true;
  return query;
}

export interface SearchFormProps {
  /** The search on screen (the URL's, or the member's defaults). */
  query: MemberSearchQuery;
  /** The site's countries (settings.countries). */
  countries: readonly string[];
  /** The fields the site searches on (settings.search_fields). */
  fields: readonly SearchField[];
  /** The regions of every served country (GET /api/regions.php). */
  loadRegions: RegionsLoader;
  /** The regions rendered with the page (its loader's), used instead of asking (issue #29). */
  regions?: Record<string, Region[]>;
  /** The name of the query's region (the page's loader), shown until the regions arrive. */
  regionName?: string | null;
  /**
   * A visitor has no country or position, so "nearby" is newest first for them (decision 018): the
   * sort choice then offers newest and online first only, the default shown as newest.
   */
  visitor?: boolean;
}

/**
 * The member search of spec §3 (gender, country, region, ages). A GET form: without script the browser
 * submits it as it is and the URL holds the state; with script it navigates to the same URL without
 * its empty fields. A new search starts at page 1.
 */
export function SearchForm(props: SearchFormProps) {
  // A new search in the URL (back button, a link) resets what the controls hold.
  return <SearchFormControls key={searchHref(props.query)} {...props} />;
}

function SearchFormControls({
  query,
  countries,
  fields,
  loadRegions,
  regions: renderedRegions,
  regionName = null,
  visitor = false,
}: SearchFormProps) {
  const intl = useIntl();
  const navigate = useNavigate();
  const id = useId();
  const [values, setValues] = useState(() => valuesOf(query));

  const searchable = (field: SearchField) => fields.includes(field);
  const withRegion = searchable("countryregion") && searchable("country");

  const regions = useRegions(loadRegions, withRegion, renderedRegions);

  const set = (field: keyof SearchValues, value: string) =>
    setValues((current) => ({ ...current, [field]: value, ...(field === "country" ? { countryregion: "" } : {}) }));

  // A new order or the online filter applies at once (with script), to the search on screen, from page 1.
  const reorder = (change: Partial<SearchValues>) => {
    const next = { ...values, ...change };
    setValues(next);
    void navigate(searchHref(queryOf({ ...valuesOf(query), sort: next.sort, online: next.online })));
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void navigate(searchHref(queryOf(values)));
  };

  const countryNames = new Intl.DisplayNames([intl.locale], { type: "region" });
  const countryOptions = countries
    .map((code) => ({ value: code, label: countryNames.of(code) ?? code }))
    .sort((a, b) => a.label.localeCompare(b.label, intl.locale));
  const countryRegions = regions?.[values.country] ?? [];
  // Until the regions arrive, the chosen one stays selectable (and is submitted without script).
  const regionOptions =
    countryRegions.length > 0 || !values.countryregion
      ? countryRegions.map((region) => ({ value: region.code, label: region.name }))
      : [
          {
            value: values.countryregion,
            label: (values.countryregion === query.countryregion ? regionName : null) ?? values.countryregion,
          },
        ];
  const regionDisabled = !values.country || (regions !== null && countryRegions.length === 0);
  const minAges = SEARCH_AGES.filter((age) => !values.max_age || age <= Number(values.max_age));
  const maxAges = SEARCH_AGES.filter((age) => !values.min_age || age >= Number(values.min_age));
  const any = intl.formatMessage({ id: "search.age_any" });
  // For a visitor the default order is newest first: shown as such, and choosing it keeps the URL plain.
  const sorts = visitor ? SEARCH_SORTS.filter((sort) => sort !== "nearby") : SEARCH_SORTS;
  const shownSort = visitor && values.sort === DEFAULT_SEARCH_SORT ? "newest" : values.sort;
  const sortOf = (value: string): SearchSort => (visitor && value === "newest" ? DEFAULT_SEARCH_SORT : (value as SearchSort));

  const select = (
    field: keyof SearchValues,
    labelId: string,
    blankLabel: string,
    options: { value: string; label: string }[],
    extra: { disabled?: boolean; hint?: string } = {},
  ) => (
    // A plain select with a name, so that the GET form also works before hydration.
    <SelectField
      id={`${id}-${field}`}
      name={field}
      label={<FormattedMessage id={labelId} />}
      labelClassName="small fw-semibold mb-1"
      className="col-6 col-md"
      blank={blankLabel}
      options={options}
      value={values[field]}
      onChange={(value) => set(field, value)}
      {...extra}
    />
  );

  return (
    <Form
      method="get"
      action="/members"
      onSubmit={submit}
      role="search"
      aria-label={intl.formatMessage({ id: "search.form_label" })}
      className="card card-body shadow-sm border-0 mb-4"
    >
      <div className="row g-2 align-items-start">
        {searchable("gender")
          ? select("gender", "search.gender", intl.formatMessage({ id: "search.gender_any" }), [
              { value: "female", label: intl.formatMessage({ id: "search.gender_female" }) },
              { value: "male", label: intl.formatMessage({ id: "search.gender_male" }) },
            ])
          : null}
        {searchable("country")
          ? select("country", "search.country", intl.formatMessage({ id: "search.country_any" }), countryOptions)
          : null}
        {withRegion
          ? select("countryregion", "search.region", intl.formatMessage({ id: "search.region_any" }), regionOptions, {
              disabled: regionDisabled,
              hint: values.country ? undefined : intl.formatMessage({ id: "search.region_hint" }),
            })
          : null}
        {searchable("min_age")
          ? select(
              "min_age",
              "search.min_age",
              any,
              minAges.map((age) => ({ value: String(age), label: intl.formatNumber(age) })),
            )
          : null}
        {searchable("max_age")
          ? select(
              "max_age",
              "search.max_age",
              any,
              maxAges.map((age) => ({ value: String(age), label: intl.formatNumber(age) })),
            )
          : null}
        <SelectField
          id={`${id}-sort`}
          name="sort"
          label={<FormattedMessage id="search.sort" />}
          labelClassName="small fw-semibold mb-1"
          // As wide as its longest choice: "Nearby first" must not be cut off.
          className="col-6 col-md-auto"
          options={sorts.map((sort) => ({ value: sort, label: intl.formatMessage({ id: `search.sort_${sort}` }) }))}
          value={shownSort}
          onChange={(value) => reorder({ sort: sortOf(value) })}
        />
        <div className="col-6 col-md-auto">
          <span className="form-label small mb-1 d-none d-md-block invisible" aria-hidden="true">
            &nbsp;
          </span>
          <Form.Check
            id={`${id}-online`}
            name="online"
            value="1"
            className="mt-md-2"
            label={<FormattedMessage id="search.online_only" />}
            checked={values.online === "1"}
            onChange={(event) => reorder({ online: event.currentTarget.checked ? "1" : "" })}
          />
        </div>
        <div className="col-12 col-md-auto">
          {/* Keeps the button level with the selects under their labels. */}
          <span className="form-label small mb-1 d-none d-md-block invisible" aria-hidden="true">
            &nbsp;
          </span>
          <Button type="submit" variant="primary" className="w-100">
            <FormattedMessage id="search.submit" />
          </Button>
        </div>
      </div>
    </Form>
  );
}
