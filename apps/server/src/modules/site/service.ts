import {
  type CompanyInfo,
  DESIGN_VERSION,
  type EditableSettings,
  INTEREST_KEYS,
  type Interest,
  isLocaleCode,
  type LocaleCode,
  PUSH_WORKER_VERSION,
  type RegionsResponse,
  type Settings,
  type SettingsChange,
  type StaffSite,
} from "@app/contract";
import { z } from "zod";
import type { Db, DbOrTx } from "../../platform/db/index.ts";
import { AppError } from "../../platform/errors.ts";
import { t } from "../../platform/i18n.ts";
import { REGIONS } from "./data/regions.ts";
import { DEFAULT_OVERRIDES, SERVED_COUNTRIES, type SiteOverrides, siteOverridesSchema } from "./overrides.ts";
import { allSites, type CompanyRow, lockSite, type SiteRow, sitesInOrder, updateSite } from "./queries.ts";
import { changesBetween, checkedSettings, editableOf, presentSite, rowValuesOf } from "./settings-edit.ts";

export { DEFAULT_OVERRIDES, SERVED_COUNTRIES, type SiteOverrides, siteOverridesSchema } from "./overrides.ts";

export interface SiteContext {
  site: SiteRow;
  company: CompanyRow;
  overrides: Required<SiteOverrides>;
}

export interface SettingsRequest {
  host: string;
  locale: LocaleCode;
  geoipCountry: string | null;
  /** A country the visitor chose (query `country`), when valid. */
  selectedCountry: string | null;
}

const countryParam = z
  .string()
  .transform((s) => s.toUpperCase())
  .pipe(z.string().regex(/^[A-Z]{2}$/));

/** The visitor's chosen country from the route's query (`country=de`), if it names a served one. */
export function selectedCountryFromQuery(query: Record<string, unknown>, served: readonly string[]): string | null {
  // Most requests name no country: a failed zod parse builds an error (measurable on GET /api/settings.php).
  if (query.country === undefined) return null;
  const parsed = countryParam.safeParse(query.country);
  return parsed.success && served.includes(parsed.data) ? parsed.data : null;
}

type SiteTexts = Pick<Settings, "index_title" | "description" | "fictional_warning" | "fictional_singular" | "fictional_plural">;

export class SiteService {
  private readonly texts = new WeakMap<SiteContext, Map<LocaleCode, SiteTexts>>();
  /** All sites, by host, reloaded every `cacheMs` (so an edit reaches every node within that time). */
  private cache: { byHost: Map<string, SiteContext>; fallback: SiteContext | undefined; expires: number } | null = null;

  /**
   * @param defaultOrigin the default site's origin (config.ts `defaultOrigin`: PUBLIC_URL, or
   *   http://localhost:PORT on a loopback site), asked each time because the port is known after listening.
   */
  constructor(
    private readonly db: Db,
    private readonly defaultOrigin: () => string,
    /** PaymentService.available: the settings tell the web whether to offer purchases (decision 030). */
    private readonly purchasesAvailable: () => boolean,
    /** The VAPID public key (issue #28, the push module's): push_public_key; no site overrides it. */
    private readonly pushPublicKey: string | null,
    private readonly cacheMs = 30_000,
  ) {}

  private async load() {
    if (this.cache && this.cache.expires > Date.now()) return this.cache;
    const byHost = new Map<string, SiteContext>();
    let fallback: SiteContext | undefined;
    for (const row of await allSites(this.db)) {
      const parsed = siteOverridesSchema.safeParse(row.site.settings);
      const context = { ...row, overrides: { ...DEFAULT_OVERRIDES, ...(parsed.success ? parsed.data : {}) } };
      byHost.set(row.site.host, context);
      if (row.site.isDefault) fallback = context;
    }
    this.cache = { byHost, fallback, expires: Date.now() + this.cacheMs };
    return this.cache;
  }

  /** The site serving `host`, or the default site for any other host. */
  async siteFor(host: string): Promise<SiteContext> {
    const { byHost, fallback } = await this.load();
    const found = byHost.get(normaliseHost(host)) ?? fallback;
    if (!found) throw new Error("No site configured: the database has no default site (seed it with SEED=true)");
    return found;
  }

  /**
   * The origin for links in e-mails and for a payment provider's redirect and webhook, for a request
   * to `host` (issue #25: never the request's own Host, which anyone can set). A host that a brand site
   * claims gets that site's domain with the default origin's scheme and port (one process behind one
   * proxy serves them all); any other host, the default site's included, gets the default origin.
   */
  async originFor(host: string): Promise<string> {
    const { byHost } = await this.load();
    const claimed = byHost.get(normaliseHost(host));
    const origin = new URL(this.defaultOrigin());
    if (!claimed || claimed.site.isDefault) return origin.origin;
    origin.hostname = claimed.site.host;
    return origin.origin;
  }

  // The staff console's settings page (issue #27): admins edit each site's Settings fields.

  /** Every site with its editable settings, read from the database (not the cache). */
  async sitesForStaff(): Promise<StaffSite[]> {
    return (await sitesInOrder(this.db)).map(presentSite);
  }

  /** What saving `input` on the site would change, checked as a save checks it (nothing is written). */
  async previewSettings(siteId: number, input: unknown): Promise<SettingsChange[]> {
    const row = (await sitesInOrder(this.db)).find((site) => site.id === siteId);
    if (!row) throw new AppError("not_found");
    return changesBetween(editableOf(row), checkedSettings(input));
  }

  /**
   * Saves a site's settings in the caller's transaction (staff.audited: the audit row with the values
   * before and after is written in the same one). Checked first: bad input changes nothing. The caller
   * calls `invalidate()` once it committed; other nodes see the change within the cache time.
   */
  async updateSettings(
    tx: DbOrTx,
    siteId: number,
    input: unknown,
  ): Promise<{ before: EditableSettings; after: EditableSettings; changes: SettingsChange[] }> {
    const settings = checkedSettings(input);
    const row = await lockSite(tx, siteId);
    if (!row) throw new AppError("not_found");
    const before = editableOf(row);
    await updateSite(tx, siteId, rowValuesOf(settings));
    return { before, after: settings, changes: changesBetween(before, settings) };
  }

  /** Forgets the cached sites (after an edit, and in tests). */
  invalidate(): void {
    this.cache = null;
  }

  /**
   * A site's translated texts in `locale`, formatted once per site and locale (they change only with the
   * site, whose context a reload replaces): formatting them on every settings call was a measurable part
   * of GET /api/settings.php (decision 018).
   */
  private textsOf(context: SiteContext, locale: LocaleCode): SiteTexts {
    let byLocale = this.texts.get(context);
    if (!byLocale) {
      byLocale = new Map();
      this.texts.set(context, byLocale);
    }
    let texts = byLocale.get(locale);
    if (!texts) {
      const { site } = context;
      texts = {
        // A site may set its own title and description; otherwise the translated product defaults.
        index_title: site.indexTitle || t(locale, "site.index_title", { site: site.name }),
        description: site.description || t(locale, "site.description", { site: site.name }),
        fictional_warning: t(locale, "fictional.warning", { site: site.name }),
        fictional_singular: t(locale, "fictional.singular"),
        fictional_plural: t(locale, "fictional.plural"),
      };
      byLocale.set(locale, texts);
    }
    return texts;
  }

  async settings(request: SettingsRequest): Promise<Settings> {
    const context = await this.siteFor(request.host);
    const { site, overrides } = context;
    const geoip = request.geoipCountry && /^[A-Z]{2}$/.test(request.geoipCountry) ? request.geoipCountry : null;
    const texts = this.textsOf(context, request.locale);
    return {
      ...overrides,
      name: site.name,
      index_title: texts.index_title,
      description: texts.description,
      visible_profile_notes: {},
      geoip_country: geoip,
      geoip_selected_country: request.selectedCountry ?? geoip,
      support_email: site.supportEmail,
      domain: site.isDefault ? normaliseHost(request.host) : site.host,
      domain_language: isLocaleCode(site.domainLanguage) ? site.domainLanguage : null,
      fictional_warning: texts.fictional_warning,
      fictional_singular: texts.fictional_singular,
      fictional_plural: texts.fictional_plural,
      purchases_available: this.purchasesAvailable(),
      push_public_key: this.pushPublicKey,
      push_worker_version: PUSH_WORKER_VERSION,
      design_version: DESIGN_VERSION,
    };
  }

  /**
   * The settings of the site serving `host` in `locale`, for a caller with no visitor's country: the
   * site's rules and texts (costs, visible fields, name) for routes, page loaders and jobs.
   */
  settingsFor(host: string, locale: LocaleCode): Promise<Settings> {
    return this.settings({ host, locale, geoipCountry: null, selectedCountry: null });
  }

  async companyInfo(host: string): Promise<CompanyInfo> {
    const { company } = await this.siteFor(host);
    return {
      name: company.name,
      address: company.address,
      kvk: company.kvk,
      city: company.city,
      country: company.country,
      tradenames: company.tradenames,
      vat_numbers: company.vatNumbers,
      support_phone: cleanPhone(company.supportPhone),
      delete_discount: company.deleteDiscount,
      added: company.added.toISOString(),
    };
  }

  interests(locale: LocaleCode): Interest[] {
    return INTEREST_KEYS.map((key) => ({ key, label: t(locale, `interest.${key}`) }));
  }

  regions(): RegionsResponse["regions"] {
    return Object.fromEntries(SERVED_COUNTRIES.map((country) => [country, [...(REGIONS[country] ?? [])]]));
  }
}

/** Spec §3: the support phone is shown cleaned of dashes and spaces. */
export function cleanPhone(phone: string): string {
  return phone.replace(/[\s-]+/g, "");
}

/** Host without port, lower case. */
export function normaliseHost(host: string): string {
  return host.replace(/:\d+$/, "").toLowerCase();
}
