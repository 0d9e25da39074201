/** The discounts module's public face: its service. */
export { type AppliedDiscount, type DiscountOrder, DiscountService } from "./service.ts";
