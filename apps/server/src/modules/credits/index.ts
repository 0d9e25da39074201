/** The credits module's public face: its service (which also lends SQL for the member context). */

export { type CreditChange, type CreditChangeInput, CreditService } from "./service.ts";
