import type { SsrServices } from "@app/contract";

const notUsed = async (): Promise<never> => {
  throw new Error("not used");
};

/**
 * The host's services (server-context.ts) for a loader test: a visitor in test mode, with no members,
 * no suggestions and no search; `overrides` replace the services the test is about. Settings, the
 * company info and the credit packages throw unless overridden (no page under test should need them).
 */
export function fakeSsrServices(overrides: Partial<SsrServices> = {}): SsrServices {
  return {
    mode: "test",
    nonce: "n",
    geoipCountry: null,
    currentUser: async () => null,
    banNotice: async () => null,
    currentStaff: async () => null,
    domainLanguage: async () => null,
    settings: notUsed,
    companyInfo: notUsed,
    teaser: async () => [],
    member: async () => null,
    searchMembers: async () => null,
    bundles: notUsed,
    checkoutDiscounts: async () => null,
    badges: async () => null,
    timeBonus: async () => null,
    welcomeDiscount: async () => null,
    regions: () => ({ regions: {} }),
    matchFinder: async () => null,
    visitors: async () => null,
    swipeCandidates: async () => null,
    regionName: () => null,
    cityCentre: async () => null,
    ...overrides,
  };
}
