import { companyInfoResponseSchema, interestsResponseSchema, type LocaleCode, regionsResponseSchema } from "@app/contract";
import { apiCall, onceBy } from "../../lib/api";

/** The site's reference data, each loaded once and cached for the page's life (spec §7). */
export const getInterests = onceBy((locale: LocaleCode) =>
  apiCall("/api/interests.php", interestsResponseSchema, { headers: { "accept-language": locale } }).then((r) => r.interests),
);
export const getRegions = onceBy((_: "all") => apiCall("/api/regions.php", regionsResponseSchema).then((r) => r.regions));
export const getCompanyInfo = onceBy((_: "site") =>
  apiCall("/api/companyinfo.php", companyInfoResponseSchema).then((r) => r.company),
);
