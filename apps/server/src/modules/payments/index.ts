/** The payments module's public face: its service, and support's part of it (issue #27). */
export type { PaymentRow } from "./queries.ts";
export { PaymentService } from "./service.ts";
export { PaymentSupport, type SupportRefund } from "./support.ts";
