import { ENDPOINTS, type LocaleCode, type MemberContext, type Settings } from "@app/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "../../platform/errors.ts";
import { handle } from "../../platform/http/endpoint.ts";
import type { ProviderHook } from "../../platform/http/provider-hooks.ts";
import { requestHost, requestLocale } from "../../platform/http/request-locale.ts";
import type { DiscountService } from "../discounts/service.ts";
import type { ProfileService } from "../profiles/service.ts";
import type { SiteService } from "../site/service.ts";
import type { DirectDebitService } from "./direct-debit.ts";
import type { PaymentService, PurchaseContext } from "./service.ts";

/** Creates per client address: above a person retrying, below a script filling the provider with payments. */
const CREATE_LIMIT = { max: 30, timeWindow: "10 minutes" };
/** Direct-debit codes texted per client address (each text costs money and reaches a phone). */
const CODE_LIMIT = { max: 10, timeWindow: "1 hour" };

export interface PaymentRoutesOptions {
  payments: PaymentService;
  directDebit: DirectDebitService;
  site: SiteService;
  profiles: Pick<ProfileService, "seekerOf">;
  discounts: Pick<DiscountService, "apply" | "welcome" | "presentApplied">;
  geoipCountry(request: FastifyRequest): string | null;
}

/**
 * Bundles, payments, the history, refunds, repeat orders and direct debit (contract payments.ts,
 * decision 021). The payment country is the geo-ip country, else the profile's, else the site's
 * first; the currency is that country's (settings `minimum_message_costs`), else euro.
 */
export async function paymentRoutes(app: FastifyInstance, options: PaymentRoutesOptions): Promise<void> {
  const { payments, directDebit, site, profiles, discounts } = options;

  const settingsOf = (request: FastifyRequest): Promise<Settings> =>
    site.settings({
      host: requestHost(request),
      locale: requestLocale(request),
      geoipCountry: options.geoipCountry(request),
      selectedCountry: null,
    });

  const whereOf = async (request: FastifyRequest, member: MemberContext | null, settings: Settings) => {
    const own = member ? await profiles.seekerOf(member.userId) : null;
    const country = options.geoipCountry(request) ?? own?.country ?? settings.countries[0] ?? "NL";
    const local = settings.minimum_message_costs[country as keyof Settings["minimum_message_costs"]]?.currency ?? "EUR";
    return { country, currency: await payments.currencyFor(local) };
  };

  /**
   * What a purchase needs; on a site without a payment provider it answers payments_unavailable (503)
   * before anything is written (decision 030). The origin is the site's configured one (issue #25).
   */
  const contextOf = async (request: FastifyRequest, member: MemberContext): Promise<PurchaseContext & { settings: Settings }> => {
    if (!payments.available) throw new AppError("payments_unavailable");
    const settings = await settingsOf(request);
    return {
      ...(await whereOf(request, member, settings)),
      origin: await site.originFor(requestHost(request)),
      locale: member.locale as LocaleCode,
      siteName: settings.name,
      settings,
    };
  };

  // The balance now: a payment recorded in this very request may have just changed it.
  const balanceOf = (member: MemberContext) => payments.balanceOf(member.userId);

  handle(app, ENDPOINTS.bundles, async ({ request, member }) => {
    const settings = await settingsOf(request);
    const offer = await payments.offer(member, await whereOf(request, member, settings));
    return {
      ...offer,
      costs: { message: settings.message_credits, photo: settings.photo_credits, gift: settings.gift_credits },
      refund_days: settings.refund_days,
    };
  });

  handle(
    app,
    ENDPOINTS.createPayment,
    async ({ request, member, body }) =>
      payments.create(
        member,
        { bundleId: body.bundle_id, method: body.method, clientId: body.client_id, discountCode: body.discount_code },
        await contextOf(request, member),
      ),
    { rateLimit: CREATE_LIMIT },
  );

  handle(
    app,
    ENDPOINTS.retryPayment,
    async ({ request, member, body }) =>
      payments.retry(member, { paymentId: body.payment_id, clientId: body.client_id }, await contextOf(request, member)),
    { rateLimit: CREATE_LIMIT },
  );

  handle(app, ENDPOINTS.payment, async ({ request, member, query }) => {
    const [row, settings] = await Promise.all([payments.get(member, query.id), settingsOf(request)]);
    return payments.present(row, await balanceOf(member), settings.refund_days);
  });

  handle(app, ENDPOINTS.transactions, async ({ request, member }) => {
    const [rows, settings, balance] = await Promise.all([payments.list(member), settingsOf(request), balanceOf(member)]);
    return { payments: rows.map((row) => payments.present(row, balance, settings.refund_days)) };
  });

  handle(app, ENDPOINTS.refund, async ({ request, member, body }) => {
    const settings = await settingsOf(request);
    const row = await payments.refund(member, body.payment_id, settings.refund_days);
    return payments.present(row, await balanceOf(member), settings.refund_days);
  });

  // Spec §7: checks a code (for a bundle and method when given); `welcome=true` answers the welcome discount.
  handle(app, ENDPOINTS.discountCode, async ({ request, member, query }) => {
    if (query.welcome === "true") return { discount: await discounts.welcome(member), price: null };
    if (!query.code) throw new AppError("code_not_found");
    if (query.bundle_id === undefined) {
      const settings = await settingsOf(request);
      const where = await whereOf(request, member, settings);
      const applied = await discounts.apply(member, query.code, { ...where, method: query.method });
      return { discount: await discounts.presentApplied(applied, member), price: null };
    }
    const settings = await settingsOf(request);
    const quote = await payments.quote(
      member,
      { code: query.code, bundleId: query.bundle_id, method: query.method },
      await whereOf(request, member, settings),
    );
    return {
      discount: await discounts.presentApplied(quote.discount, member),
      price: { original: quote.original, discounted: quote.discounted, currency: quote.currency },
    };
  });

  handle(
    app,
    ENDPOINTS.repeatOrder,
    async ({ request, member, body }) => payments.repeatOrder(member, body.client_id, await contextOf(request, member)),
    { rateLimit: CREATE_LIMIT },
  );

  handle(
    app,
    ENDPOINTS.directDebitStart,
    async ({ request, member, body }) => directDebit.start(member, body, await contextOf(request, member)),
    { rateLimit: CODE_LIMIT },
  );

  handle(
    app,
    ENDPOINTS.directDebitConfirm,
    async ({ request, member, body }) => directDebit.confirm(member, body, await contextOf(request, member)),
    { rateLimit: CREATE_LIMIT },
  );
}

/**
 * The provider's webhook, `POST /hooks/payments/<provider>` with `id=<provider's payment id>`
 * (Mollie's shape): it carries no proof, so it proves nothing either: the site asks the provider
 * about that id and records what the provider answers. Unknown ids answer 200 like known ones (a
 * caller learns nothing), a provider that cannot be reached answers 502 so that the provider retries.
 */
export function paymentHook(payments: PaymentService): ProviderHook {
  return {
    name: `payments/${payments.provider.name}`,
    authenticate: () => true,
    handle: async ({ fields }) => {
      const id = fields.id;
      if (!id || id.length > 100) return "ok";
      await payments.sync(payments.provider.name, id);
      return "ok";
    },
  };
}
