import { randomBytes } from "node:crypto";
import { type MainImage as ContractMainImage, PHOTO_UPLOAD, type Photo } from "@app/contract";
import sharp from "sharp";
import type { Db } from "../../platform/db/index.ts";
import { AppError } from "../../platform/errors.ts";
import type { Storage } from "../../platform/storage.ts";
import {
  findPhotoByFile,
  insertPhotos,
  insertPhotoWithinLimit,
  mainPhotos,
  type NewPhoto,
  type PhotoRow,
  photosOfProfile,
  profilesWithPublicMainSql,
} from "./queries.ts";

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

  /** The member's own main image with its URLs (the owner always sees their own photos). */
  async ownMainImage(profileId: number): Promise<ContractMainImage | null> {
    const main = (await this.mainImages([profileId])).get(profileId);
    if (!main) return null;
    return { ...main, url: this.urlOf(main.filename), thumb_url: this.urlOf(main.thumb_filename) };
  }

  async listOwn(profileId: number): Promise<Photo[]> {
    return (await photosOfProfile(this.db, profileId)).map((row) => ({
      id: row.id,
      url: this.urlOf(row.filename),
      thumb_url: this.urlOf(row.thumbFilename),
      status: row.status,
      is_main: row.isMain,
      private: row.private,
      position: row.position,
    }));
  }

  /**
   * An uploaded photo: the real type is read from the bytes (JPEG, PNG or WebP only), pixel floods
   * are refused before decoding, and the stored files are re-encoded without any metadata. Nothing is
   * stored when a check fails or the member is at their limit.
   */
  async upload(profileId: number, input: Buffer, limit: number): Promise<Photo[]> {
    if (input.length > PHOTO_UPLOAD.maxBytes) throw new AppError("photo_too_large");
    let format: string | undefined;
    try {
      const meta = await sharp(input, { limitInputPixels: PHOTO_UPLOAD.maxPixels }).metadata();
      format = meta.format;
      if (!meta.width || !meta.height || meta.width * meta.height > PHOTO_UPLOAD.maxPixels) throw new Error("size");
    } catch {
      throw new AppError("photo_invalid");
    }
    if (!["jpeg", "png", "webp"].includes(format ?? "")) throw new AppError("photo_invalid");
    if ((await photosOfProfile(this.db, profileId)).length >= limit) throw new AppError("photo_limit_reached", { limit });
    let row: NewPhoto;
    try {
      // Uploads are visible at once; moderation can reject them afterwards (status stays in the row).
      row = await this.addFromBuffer(profileId, input, { isMain: false, status: "active", position: 0 });
    } catch {
      throw new AppError("photo_invalid");
    }
    const created = await insertPhotoWithinLimit(this.db, row, limit);
    if (!created) {
      await Promise.all([this.storage.delete(row.filename), this.storage.delete(row.thumbFilename)]);
      throw new AppError("photo_limit_reached", { limit });
    }
    return this.listOwn(profileId);
  }

  async deleteFilesOfProfile(profileId: number): Promise<void> {
    for (const row of await photosOfProfile(this.db, profileId)) {
      await Promise.all([this.storage.delete(row.filename), this.storage.delete(row.thumbFilename)]);
    }
  }

  /** A photo file the member themself owns (any status), or null. */
  async readOwn(key: string, profileId: number): Promise<Buffer | null> {
    const photo = await findPhotoByFile(this.db, key);
    if (photo?.profileId !== profileId) return null;
    return this.storage.get(key);
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
