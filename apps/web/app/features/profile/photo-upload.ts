import { PHOTO_UPLOAD } from "@app/contract";
import type { IntlShape } from "react-intl";

/** The upload size limit in whole megabytes, as the hints and errors say it. */
export const PHOTO_MAX_MEGABYTES = PHOTO_UPLOAD.maxBytes / 1024 / 1024;

/**
 * What is wrong with a chosen file before it is sent (type by the browser's guess, size), or null.
 * The server checks the real bytes again; this only spares a pointless upload.
 */
export function photoFileProblem(file: File, intl: IntlShape): string | null {
  if (!(PHOTO_UPLOAD.types as readonly string[]).includes(file.type)) return intl.formatMessage({ id: "signup.photo_type" });
  if (file.size > PHOTO_UPLOAD.maxBytes) {
    return intl.formatMessage({ id: "signup.photo_size" }, { megabytes: PHOTO_MAX_MEGABYTES });
  }
  return null;
}
