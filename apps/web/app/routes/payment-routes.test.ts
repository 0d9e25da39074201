// @vitest-environment node
import type { SsrServices, User } from "@app/contract";
import { describe, expect, it } from "vitest";
import { testUser } from "../features/account/test-users";
import { bundlesAnswer } from "../features/payments/test-data";
import { fakeSsrServices } from "../lib/fake-ssr-services";
import { createLoadContext } from "../server-context";
import { handle as creditsHandle, middleware as creditsMiddleware, loader as creditsOnly } from "./credits";
import { handle as checkoutHandle, middleware as checkoutMiddleware, loader as checkoutOnly } from "./credits-checkout";
import { middleware as directDebitMiddleware, loader as directDebitOnly } from "./directdebit";
import { guarded } from "./guarded";
import { middleware as transactionsMiddleware, loader as transactionsOnly } from "./transactions";

/** The host's services as the payment loaders use them: the member, the bundles, the checkout's discounts (by method). */
function contextFor(user: User | null) {
  return createLoadContext(
    fakeSsrServices({
      currentUser: async () => user,
      bundles: async () => bundlesAnswer(),
      checkoutDiscounts: async (bundleId: number, method: string) =>
        ({ asked: `${bundleId}:${method}` }) as unknown as Awaited<ReturnType<SsrServices["checkoutDiscounts"]>>,
    }),
  );
}

/** Loader arguments for any of these routes (each route types its own params). */
const args = (url: string, user: User | null, params: Record<string, string> = {}) =>
  ({ request: new Request(url), params, context: contextFor(user) }) as never;

const creditsLoader = guarded(creditsMiddleware, creditsOnly);
const checkoutLoader = guarded(checkoutMiddleware, checkoutOnly);
const directDebitLoader = guarded(directDebitMiddleware, directDebitOnly);
const transactionsLoader = guarded(transactionsMiddleware, transactionsOnly);

/** What a loader threw: a redirect's location, or a 404 as its status. */
async function thrown(promise: Promise<unknown>): Promise<string | number | null> {
  try {
    await promise;
    return null;
  } catch (error) {
    if (error instanceof Response) return error.headers.get("location");
    return (error as { init?: ResponseInit | null }).init?.status ?? -1;
  }
}

describe("payment page loaders", () => {
  it("send visitors to the login", async () => {
    expect(await thrown(creditsLoader(args("http://x/credits", null)))).toBe("/login");
    expect(await thrown(checkoutLoader(args("http://x/credits/2", null, { id: "2" })))).toBe("/login");
    expect(await thrown(directDebitLoader(args("http://x/directdebit?bundle=2", null)))).toBe("/login");
    expect(await thrown(transactionsLoader(args("http://x/transactions", null)))).toBe("/login");
  });

  it("answer 404 for an id that is not one, and pass the bundle, method and order on", async () => {
    const member = testUser();
    expect(await thrown(checkoutLoader(args("http://x/credits/abc", member, { id: "abc" })))).toBe(404);
    expect(await thrown(transactionsLoader(args("http://x/transactions/0", member, { id: "0" })))).toBe(404);
    expect(await checkoutLoader(args("http://x/credits/2/paypal", member, { id: "2", paymentmethod: "paypal" }))).toEqual({
      id: 2,
      method: "paypal",
      bundles: bundlesAnswer(),
      discounts: { asked: "2:paypal" },
    });
    // The first screen's method (issue #29): the URL's when offered before Apple Pay is asked, else the first.
    const withApplePay = await checkoutLoader(
      args("http://x/credits/3/applepay", member, { id: "3", paymentmethod: "applepay" }),
    );
    expect(withApplePay.discounts).toEqual({ asked: "3:ideal" });
    expect(await directDebitLoader(args("http://x/directdebit?bundle=3", member))).toEqual({ bundleId: 3 });
    expect(await directDebitLoader(args("http://x/directdebit?bundle=x", member))).toEqual({ bundleId: null });
    expect(await transactionsLoader(args("http://x/transactions/12", member, { id: "12" }))).toEqual({ id: 12 });
    expect(await transactionsLoader(args("http://x/transactions", member))).toEqual({ id: null });
  });

  it("show the installed-app back button on credits and credits-id-paymentmethod (spec §2)", () => {
    expect(creditsHandle.backButton).toBe(true);
    expect(checkoutHandle.backButton).toBe(true);
  });
});
