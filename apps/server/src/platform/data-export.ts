/**
 * The data export (GDPR art. 15 access and art. 20 portability, issue #27): every module that holds
 * something on a member contributes its part through its own service, reading only its own tables.
 * The data-export module puts the parts together into one ZIP.
 */

/** Whom an export is for: the account and, when there is one, its profile (most modules key on it). */
export interface ExportSubject {
  userId: number;
  profileId: number | null;
}

/** A file of the export besides the JSON documents (a photo), under a folder of its module. */
export interface ExportFile {
  path: string;
  bytes: Uint8Array;
}

/**
 * One module's part: JSON documents by name (`likes` becomes likes.json) and files. Nothing secret goes
 * in (no password or token hash, no session token, no one-time code): only what the member may read.
 */
export interface ExportPart {
  json: Record<string, unknown>;
  files?: ExportFile[];
}

/** What a module offers the export. */
export interface ExportContributor {
  exportFor(subject: ExportSubject): Promise<ExportPart>;
}

/** An ISO 8601 time or null, as every date of the export is written. */
export const isoOrNull = (date: Date | null | undefined): string | null => (date ? date.toISOString() : null);
