import type { LocaleCode } from "@app/contract";
import { strToU8, type Zippable, zipSync } from "fflate";
import type { ExportContributor, ExportSubject } from "../../platform/data-export.ts";
import { AppError } from "../../platform/errors.ts";
import { t } from "../../platform/i18n.ts";

/** Whom an export is for, with the language its README is written in (the member's own). */
export interface ExportMember extends ExportSubject {
  locale: LocaleCode;
  email: string | null;
}

export interface DataExport {
  /** `<site>-data-<member id>-<date>.zip` */
  filename: string;
  zip: Uint8Array;
  /** The files in it, README first (what the audit log records of a staff download). */
  files: string[];
}

export interface DataExportDeps {
  /** Each module's part, in the order the README lists them (modules that hold nothing return `{ json: {} }`). */
  contributors: readonly ExportContributor[];
  /** The member behind an account id, or null (no such account, or a fictional profile's). */
  memberOf(userId: number): Promise<ExportMember | null>;
  siteName(): Promise<string>;
  clock?: () => Date;
}

/** JSON documents the README describes, each with its message (`export.readme.file.<name>`). */
const DESCRIBED = [
  "account",
  "logins",
  "signup-messages",
  "profile",
  "photos",
  "likes",
  "blocks",
  "conversations",
  "credits",
  "payments",
  "discounts",
  "complaints",
] as const;

/**
 * The data export (GDPR art. 15 and 20, issue #27): one ZIP of everything the site holds on a member,
 * made of each module's part (its `exportFor`, which reads only its own tables), as JSON documents and
 * the photo files, with a README in the member's language. The member downloads it from their settings
 * and support from the console: the same ZIP.
 *
 * Size: built in memory. A member has at most PHOTO_UPLOAD.limit profile photos (under 1 MB each after
 * re-encoding) and the chat photos of their conversations within the retention window; the JPEGs are
 * stored as they are (no second compression), the JSON deflated. A very active member's archive is a
 * few tens of MB at most, held once per download, and downloads are rate limited per member.
 */
export class DataExportService {
  private readonly clock: () => Date;

  constructor(private readonly deps: DataExportDeps) {
    this.clock = deps.clock ?? (() => new Date());
  }

  async build(userId: number): Promise<DataExport> {
    const member = await this.deps.memberOf(userId);
    if (!member) throw new AppError("not_found");
    const parts = await Promise.all(this.deps.contributors.map((contributor) => contributor.exportFor(member)));
    const now = this.clock();
    const entries: Zippable = {};
    const names: string[] = [];
    for (const part of parts) {
      for (const [name, value] of Object.entries(part.json)) {
        entries[`${name}.json`] = [strToU8(`${JSON.stringify(value, null, 2)}\n`), { level: 6, mtime: now }];
        names.push(`${name}.json`);
      }
      for (const file of part.files ?? []) {
        // JPEGs are compressed already: stored, not deflated again.
        entries[file.path] = [file.bytes, { level: 0, mtime: now }];
        names.push(file.path);
      }
    }
    const site = await this.deps.siteName();
    const readme = this.readme(member, site, now, names);
    const zip = zipSync({ "README.txt": [strToU8(readme), { level: 6, mtime: now }], ...entries });
    const slug =
      site
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-|-$/g, "") || "site";
    return { filename: `${slug}-data-${userId}-${now.toISOString().slice(0, 10)}.zip`, zip, files: ["README.txt", ...names] };
  }

  /** The README: what the archive is, each file present, and what is left out on purpose. */
  private readme(member: ExportMember, site: string, now: Date, names: string[]): string {
    const { locale } = member;
    const lines = [
      t(locale, "export.readme.title", { site }),
      "",
      t(locale, "export.readme.intro", {
        site,
        id: member.userId,
        email: member.email ?? "",
        date: now.toISOString().replace("T", " ").slice(0, 16),
      }),
      "",
      t(locale, "export.readme.files"),
    ];
    for (const name of DESCRIBED) {
      if (names.includes(`${name}.json`))
        lines.push(`- ${name}.json: ${t(locale, `export.readme.file.${name.replace("-", "_")}`)}`);
    }
    if (names.some((name) => name.startsWith("photos/"))) lines.push(`- photos/: ${t(locale, "export.readme.folder.photos")}`);
    if (names.some((name) => name.startsWith("chat-photos/"))) {
      lines.push(`- chat-photos/: ${t(locale, "export.readme.folder.chat_photos")}`);
    }
    lines.push(
      "",
      t(locale, "export.readme.others"),
      "",
      t(locale, "export.readme.secrets"),
      "",
      t(locale, "export.readme.format"),
    );
    return `${lines.join("\n")}\n`;
  }
}
