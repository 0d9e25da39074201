import type { Db } from "../../platform/db/index.ts";
import type { Storage } from "../../platform/storage.ts";
import { findPhotoByFile, photosOfProfile } from "./queries.ts";

/** A photo as support sees it: every one of the member's, pending, rejected and locked (private) included. */
export interface SupportPhoto {
  id: number;
  key: string;
  thumbKey: string;
  status: string;
  isMain: boolean;
  private: boolean;
  createdAt: Date;
}

/** The photos module's part of support (issue #27). */
export class PhotoSupport {
  constructor(
    private readonly db: Db,
    private readonly storage: Storage,
  ) {}

  async ofProfile(profileId: number): Promise<SupportPhoto[]> {
    const rows = await photosOfProfile(this.db, profileId);
    return rows.map((row) => ({
      id: row.id,
      key: row.filename,
      thumbKey: row.thumbFilename,
      status: row.status,
      isMain: row.isMain,
      private: row.private,
      createdAt: row.createdAt,
    }));
  }

  /** The bytes of a member's photo file (full or thumbnail) and the profile it belongs to, for staff. */
  async file(key: string): Promise<{ profileId: number; bytes: Buffer } | null> {
    const photo = await findPhotoByFile(this.db, key);
    if (!photo) return null;
    const bytes = await this.storage.get(key);
    return bytes ? { profileId: photo.profileId, bytes } : null;
  }
}
