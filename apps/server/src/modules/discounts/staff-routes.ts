import { STAFF_DISCOUNTS_ENDPOINTS } from "@app/contract";
import type { FastifyInstance } from "fastify";
import type { Tx } from "../../platform/db/index.ts";
import { AppError } from "../../platform/errors.ts";
import type { AccountService } from "../accounts/index.ts";
import type { PaymentService } from "../payments/service.ts";
import { actorOf, handleStaff, type StaffService } from "../staff/index.ts";
import type { DiscountService } from "./service.ts";

export interface DiscountStaffRoutesOptions {
  discounts: DiscountService;
  payments: Pick<PaymentService, "bundles">;
  accounts: Pick<AccountService, "findUser">;
  staff: StaffService;
}

/**
 * Discount codes and bundles in the staff console (issue #27): support and admins list them with their
 * uses, create codes and bundles, expire codes and retire bundles; each write with its audit row.
 */
export async function discountStaffRoutes(
  app: FastifyInstance,
  { discounts, payments, accounts, staff }: DiscountStaffRoutesOptions,
): Promise<void> {
  handleStaff(app, STAFF_DISCOUNTS_ENDPOINTS.discountsList, async () => ({
    discounts: await discounts.admin.list(),
    bundles: await payments.bundles.list(),
  }));

  handleStaff(app, STAFF_DISCOUNTS_ENDPOINTS.discountRedemptions, async ({ params }) =>
    discounts.admin.redemptions(params.codeId),
  );

  handleStaff(app, STAFF_DISCOUNTS_ENDPOINTS.discountCreate, async ({ request, staff: who, body }) => {
    // A member's own code names a member account (not a fictional profile's).
    if (body.user_id !== null) {
      const user = await accounts.findUser(body.user_id);
      if (!user || user.fictional) throw new AppError("validation_failed", {}, { user_id: "invalid_value" });
    }
    const discount = await staff.audited(
      actorOf(request, who),
      (created) => ({
        action: "discount.create",
        objectType: "discount",
        objectId: created.id,
        memberId: created.user_id,
        after: body,
      }),
      (tx: Tx) => discounts.admin.create(tx, body),
    );
    return { discount };
  });

  handleStaff(app, STAFF_DISCOUNTS_ENDPOINTS.discountExpire, async ({ request, staff: who, params }) => {
    await staff.audited(
      actorOf(request, who),
      (result) => ({
        action: "discount.expire",
        objectType: "discount",
        objectId: params.codeId,
        before: { expires_at: result.before },
        after: { expires_at: result.after },
      }),
      async (tx: Tx) => {
        const result = await discounts.admin.expire(tx, params.codeId);
        if (!result) throw new AppError("not_found");
        return result;
      },
    );
    return { discount: (await discounts.admin.redemptions(params.codeId)).discount };
  });

  handleStaff(app, STAFF_DISCOUNTS_ENDPOINTS.bundleCreate, async ({ request, staff: who, body }) => {
    const bundle = await staff.audited(
      actorOf(request, who),
      (created) => ({ action: "bundle.create", objectType: "bundle", objectId: created.id, after: body }),
      (tx: Tx) => payments.bundles.create(tx, body),
    );
    return { bundle };
  });

  handleStaff(app, STAFF_DISCOUNTS_ENDPOINTS.bundleRetire, async ({ request, staff: who, params }) => {
    await staff.audited(
      actorOf(request, who),
      (result) => ({
        action: "bundle.retire",
        objectType: "bundle",
        objectId: params.bundleId,
        before: result.before,
        after: result.after,
      }),
      async (tx: Tx) => {
        const result = await payments.bundles.retire(tx, params.bundleId);
        if (!result) throw new AppError("not_found");
        return result;
      },
    );
    const bundle = (await payments.bundles.list()).find((row) => row.id === params.bundleId);
    if (!bundle) throw new AppError("not_found");
    return { bundle };
  });
}
