// @vitest-environment node
import { afterEach, describe, expect, it, vi } from "vitest";
import { serverHtmlWithDiscounts } from "../features/discounts/test-render";
import { checkoutLoaderData } from "../features/payments/test-data";
import { stubApi, testUser } from "../test-utils";
import CreditsCheckoutRoute from "./credits-checkout";

afterEach(() => vi.unstubAllGlobals());

const text = (html: string) =>
  html
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ");

describe("/credits/{id} rendered on the server (issue #29)", () => {
  it("sends the package, the price after the pre-selected discount and the payment methods in the page's HTML", () => {
    const fetch = stubApi({});
    const html = serverHtmlWithDiscounts(
      <CreditsCheckoutRoute {...checkoutLoaderData<Parameters<typeof CreditsCheckoutRoute>[0]>()} />,
      {
        user: testUser({ credits: 0 }),
        routeId: "credits-id-paymentmethod",
        path: "/credits/2",
      },
    );
    expect(text(html)).toContain("250 credits · €14.99 , instead of €19.99 €19.99");
    expect(text(html)).toContain("TIMEBONUS25 applied: you pay €14.99 instead of €19.99.");
    expect(text(html)).toContain("Pay €14.99");
    const pay = html.match(/<button(?:(?!<button).)*?Pay €14\.99/s)?.[0];
    expect(pay).toMatch(/type="submit"/);
    expect(pay).not.toContain("disabled");
    expect([...html.matchAll(/<input[^>]*name="method"[^>]*value="(\w+)"/g)].map((match) => match[1])).toEqual([
      "ideal",
      "creditcard",
      "paypal",
      "directdebit",
    ]);
    expect(html).toMatch(
      /<input[^>]*name="method"[^>]*value="ideal"[^>]*checked=""|<input[^>]*name="method"[^>]*checked=""[^>]*value="ideal"/,
    );
    expect(html).not.toContain("Loading");
    expect(fetch).not.toHaveBeenCalled();
  });
});
