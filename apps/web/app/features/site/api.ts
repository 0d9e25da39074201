import { ENDPOINTS, type LocaleCode } from "@app/contract";
import { callEndpoint, onceBy } from "../../lib/api";

/** The site's reference data, each loaded once and cached for the page's life (spec §7). */
export const getInterests = onceBy((locale: LocaleCode) =>
  callEndpoint(ENDPOINTS.interests, { headers: { "accept-language": locale } }).then((r) => r.interests),
);
export const getRegions = onceBy((_: "all") => callEndpoint(ENDPOINTS.regions).then((r) => r.regions));
export const getCompanyInfo = onceBy((_: "site") => callEndpoint(ENDPOINTS.companyInfo).then((r) => r.company));
