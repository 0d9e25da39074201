import { z } from "zod";
import { LOCALE_CODES } from "./locale-list.ts";

export * from "./locale-list.ts";

export const localeCodeSchema = z.enum(LOCALE_CODES);
