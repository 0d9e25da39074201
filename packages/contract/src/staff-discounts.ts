import { z } from "zod";
import {
  bundleCreateSchema,
  discountCreateSchema,
  staffBundleSchema,
  staffDiscountSchema,
  staffRedemptionSchema,
} from "./discounts-admin.ts";
import { idSchema } from "./http.ts";
import { staffEndpoint } from "./staff.ts";

const codeParams = z.object({ codeId: z.coerce.number().pipe(idSchema) });
const bundleParams = z.object({ bundleId: z.coerce.number().pipe(idSchema) });

/**
 * Discount codes and credit bundles in the staff console (issue #27, /staff/discounts): support and
 * admins create, expire and retire them and see their redemptions; every write is audited.
 */
export const STAFF_DISCOUNTS_ENDPOINTS = {
  discountsList: staffEndpoint({
    method: "GET",
    path: "/staff/api/discounts",
    roles: ["support"],
    response: z.object({ discounts: z.array(staffDiscountSchema), bundles: z.array(staffBundleSchema) }),
  }),
  discountRedemptions: staffEndpoint({
    method: "GET",
    path: "/staff/api/discounts/:codeId/redemptions",
    roles: ["support"],
    params: codeParams,
    response: z.object({ discount: staffDiscountSchema, redemptions: z.array(staffRedemptionSchema) }),
  }),
  discountCreate: staffEndpoint({
    method: "POST",
    path: "/staff/api/discounts",
    roles: ["support"],
    body: discountCreateSchema,
    response: z.object({ discount: staffDiscountSchema }),
  }),
  discountExpire: staffEndpoint({
    method: "POST",
    path: "/staff/api/discounts/:codeId/expire",
    roles: ["support"],
    params: codeParams,
    response: z.object({ discount: staffDiscountSchema }),
  }),
  bundleCreate: staffEndpoint({
    method: "POST",
    path: "/staff/api/bundles",
    roles: ["support"],
    body: bundleCreateSchema,
    response: z.object({ bundle: staffBundleSchema }),
  }),
  bundleRetire: staffEndpoint({
    method: "POST",
    path: "/staff/api/bundles/:bundleId/retire",
    roles: ["support"],
    params: bundleParams,
    response: z.object({ bundle: staffBundleSchema }),
  }),
};
