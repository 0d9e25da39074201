import { randomBytes } from "node:crypto";
import sharp from "sharp";
import type { Db } from "../../platform/db/index.ts";
import type { Storage } from "../../platform/storage.ts";
import { findPhotoByFile, insertPhotos, mainPhotos, type NewPhoto, type PhotoRow, profilesWithPublicMainSql } from "./queries.ts";

export const PHOTO_SIZES = { full: { width: 960, height: 1200 }, thumb: { width: 320, height: 400 } } as const;

export interface MainImage {
  filename: string;
  thumb_filename: string;
  status: PhotoRow["status"];
}

/** A random, unguessable object key for a photo file. */
function newKey(suffix: string): string {
  return `photos/${randomBytes(16).toString("hex")}${suffix}.jpg`;
}

export class PhotoService {
  constructor(
    private readonly db: Db,
    private readonly storage: Storage,
    private readonly cdnPrefix = "/cdn/",
  ) {}

  urlOf(key: string): string {
    return this.cdnPrefix + key;
  }

  /** A SQL subquery of the ids of profiles with an active, public main image. */
  profilesWithPublicMain() {
    return profilesWithPublicMainSql(this.db);
  }

  /** Main images of these profiles, by profile id. */
  async mainImages(profileIds: number[]): Promise<Map<number, MainImage>> {
    const rows = await mainPhotos(this.db, profileIds);
    return new Map(
      rows.map((row) => [row.profileId, { filename: row.filename, thumb_filename: row.thumbFilename, status: row.status }]),
    );
  }

  /**
   * Stores an image for a profile: re-encoded as JPEG in a full and a thumbnail size, every piece of
   * metadata (EXIF, GPS, ICC comments) dropped because sharp writes none unless asked to.
   */
  async addFromBuffer(
    profileId: number,
    input: Buffer,
    options: { isMain: boolean; status: PhotoRow["status"]; position: number; private?: boolean },
  ): Promise<NewPhoto> {
    const base = sharp(input, { limitInputPixels: 40_000_000 }).rotate();
    const full = await base
      .clone()
      .resize({ ...PHOTO_SIZES.full, fit: "inside", withoutEnlargement: true })
      .jpeg({ quality: 82, mozjpeg: true })
      .toBuffer({ resolveWithObject: true });
    const thumb = await base
      .clone()
      .resize({ ...PHOTO_SIZES.thumb, fit: "cover" })
      .jpeg({ quality: 78, mozjpeg: true })
      .toBuffer();
    const filename = newKey("");
    const thumbFilename = newKey("-t");
    await this.storage.put(filename, full.data, "image/jpeg");
    await this.storage.put(thumbFilename, thumb, "image/jpeg");
    return {
      profileId,
      filename,
      thumbFilename,
      status: options.status,
      isMain: options.isMain,
      private: options.private ?? false,
      position: options.position,
      width: full.info.width,
      height: full.info.height,
    };
  }

  async saveRows(rows: NewPhoto[]): Promise<void> {
    await insertPhotos(this.db, rows);
  }

  /**
   * The bytes a request for `key` may receive. For now only public main images (active, not private,
   * of a visible member) are served to anyone; the per-member access rules arrive with the photos
   * module's own issue.
   */
  async readPublic(key: string, profileIsPublic: (profileId: number) => Promise<boolean>): Promise<Buffer | null> {
    const photo = await findPhotoByFile(this.db, key);
    if (photo?.status !== "active" || photo.private || !photo.isMain) return null;
    if (!(await profileIsPublic(photo.profileId))) return null;
    return this.storage.get(key);
  }
}
