import { randomBytes } from "node:crypto";
import {
  type MainImage as ContractMainImage,
  type ModerationMode,
  type ModerationReason,
  PHOTO_UPLOAD,
  type Photo,
} from "@app/contract";
import type { SQL } from "drizzle-orm";
import pLimit from "p-limit";
import sharp from "sharp";
import { type ExportFile, type ExportPart, type ExportSubject, isoOrNull } from "../../platform/data-export.ts";
import type { Db, DbOrTx } from "../../platform/db/index.ts";
import { AppError } from "../../platform/errors.ts";
import type { Storage } from "../../platform/storage.ts";
import {
  countPhotosInReview,
  decidePhoto,
  deletePhoto,
  findPhotoByFile,
  findPhotoOfProfile,
  hasPublicMainCondition,
  insertPhotos,
  insertPhotoWithinLimit,
  mainPhotos,
  mainThumbColumn,
  movePhoto,
  type NewPhoto,
  type PhotoRow,
  photosByIds,
  photosInReview,
  photosOfProfile,
  type ReviewQueueOptions,
  setMainPhoto,
  setPhotoPrivate,
} from "./queries.ts";

export const PHOTO_SIZES = { full: { width: 960, height: 1200 }, thumb: { width: 320, height: 400 } } as const;

/** Who asks for a photo: their own profile and whether they are premium. */
export interface PhotoViewer {
  profileId: number | null;
  paid: boolean;
}

export interface MainImage {
  filename: string;
  thumb_filename: string;
  status: PhotoRow["status"];
}

/** A random, unguessable object key for a photo file. */
function newKey(suffix: string): string {
  return `photos/${randomBytes(16).toString("hex")}${suffix}.jpg`;
}

/**
 * Image decoding is the one thing a member can make expensive (a 36-megapixel upload takes ~30 MB of
 * pixels and a core for a while): at most this many run at once per process, the rest wait their turn.
 * Measured before the limit: 8 parallel 36 MP uploads raised the process's memory by 230 MB.
 */
export const IMAGE_WORK_CONCURRENCY = 2;

export type { PhotoRow, ReviewQueueOptions };

/** A profile photo's files as `encode` makes them. */
export interface EncodedPhoto {
  full: Buffer;
  thumb: Buffer;
  width: number;
  height: number;
}

/**
 * What `encode` does, for caches of its output: change it whenever the sizes or the JPEG options change.
 * `fast` (generated illustrations such as the demo portraits) uses libjpeg-turbo's encoder instead of
 * mozjpeg: about 2.4 times less CPU per photo (26 against 66 ms measured here), slightly larger files.
 */
export const PHOTO_ENCODING = (fast = false) =>
  `v1:${JSON.stringify(PHOTO_SIZES)}:full-q82-${fast ? "turbo" : "mozjpeg"}:thumb-q78-${fast ? "turbo" : "mozjpeg"}`;

export class PhotoService {
  /** Every sharp pipeline of this service (uploads and blurred copies) runs through this queue. */
  private readonly imageWork = pLimit(IMAGE_WORK_CONCURRENCY);

  /** How many image jobs run and wait right now (for tests and health). */
  get imageQueue(): { active: number; pending: number } {
    return { active: this.imageWork.activeCount, pending: this.imageWork.pendingCount };
  }

  constructor(
    private readonly db: Db,
    private readonly storage: Storage,
    private readonly cdnPrefix = "/cdn/",
  ) {}

  urlOf(key: string): string {
    return this.cdnPrefix + key;
  }

  /** "This profile id column has an active, public main image", as SQL for other modules' queries. */
  hasPublicMain(profileIdColumn: SQL): SQL {
    return hasPublicMainCondition(profileIdColumn);
  }

  /**
   * The thumbnail file of the profile in this column's active main photo, or null, as a lent SQL column:
   * a list reads its cards' images in its own statement instead of a second round trip (`mainImages`).
   */
  mainThumbOf(profileIdColumn: SQL): SQL<string | null> {
    return mainThumbColumn(profileIdColumn);
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
    return this.addEncoded(profileId, await this.encode(input), options);
  }

  /**
   * A profile photo's two files as this module makes them (the full size within PHOTO_SIZES.full, the
   * thumbnail cropped to PHOTO_SIZES.thumb, JPEG without metadata), from any image sharp reads (an
   * SVG too). `fast` for generated illustrations (see PHOTO_ENCODING). The seed caches them (seed/portrait-cache.ts), keyed with PHOTO_ENCODING.
   */
  async encode(input: Buffer, options: { fast?: boolean } = {}): Promise<EncodedPhoto> {
    const mozjpeg = !options.fast;
    const { full, thumb } = await this.imageWork(async () => {
      const base = sharp(input, { limitInputPixels: PHOTO_UPLOAD.maxPixels }).rotate();
      return {
        full: await base
          .clone()
          .resize({ ...PHOTO_SIZES.full, fit: "inside", withoutEnlargement: true })
          .jpeg({ quality: 82, mozjpeg })
          .toBuffer({ resolveWithObject: true }),
        thumb: await base
          .clone()
          .resize({ ...PHOTO_SIZES.thumb, fit: "cover" })
          .jpeg({ quality: 78, mozjpeg })
          .toBuffer(),
      };
    });
    return { full: full.data, thumb, width: full.info.width, height: full.info.height };
  }

  /** Stores files made by `encode` under new keys; answers the row to save (saveRows). */
  async addEncoded(
    profileId: number,
    encoded: EncodedPhoto,
    options: { isMain: boolean; status: PhotoRow["status"]; position: number; private?: boolean },
  ): Promise<NewPhoto> {
    const filename = newKey("");
    const thumbFilename = newKey("-t");
    await this.storage.put(filename, encoded.full, "image/jpeg");
    await this.storage.put(thumbFilename, encoded.thumb, "image/jpeg");
    return {
      profileId,
      filename,
      thumbFilename,
      status: options.status,
      isMain: options.isMain,
      private: options.private ?? false,
      position: options.position,
      width: encoded.width,
      height: encoded.height,
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
      rejection_reason: row.status === "rejected" ? row.rejectionReason : null,
      is_main: row.isMain,
      private: row.private,
      position: row.position,
    }));
  }

  /**
   * The stored bytes of one of a profile's active photos, private ones included (issue #27: an operator
   * sends a fictional profile's own photo in its chat, re-encoded by storeChatPhoto, and sees its
   * thumbnail in the inbox); null when the profile has no such active photo.
   */
  async activePhotoBytes(profileId: number, photoId: number, size: "full" | "thumb" = "full"): Promise<Buffer | null> {
    const row = (await photosOfProfile(this.db, profileId)).find((photo) => photo.id === photoId && photo.status === "active");
    return row ? await this.storage.get(size === "full" ? row.filename : row.thumbFilename) : null;
  }

  /**
   * An uploaded photo: the real type is read from the bytes (JPEG, PNG or WebP only), pixel floods
   * are refused before decoding, and the stored files are re-encoded without any metadata. Nothing is
   * stored when a check fails or the member is at their limit.
   */
  async upload(profileId: number, input: Buffer, limit: number, review: ModerationMode): Promise<Photo[]> {
    await this.checkUpload(input);
    if ((await photosOfProfile(this.db, profileId)).length >= limit) throw new AppError("photo_limit_reached", { limit });
    let row: NewPhoto;
    try {
      // Every upload waits for review (issue #27): a site reviewing before keeps it from others until it
      // is approved (pending); one reviewing after shows it at once, until a moderator rejects it.
      row = {
        ...(await this.addFromBuffer(profileId, input, {
          isMain: false,
          status: review === "before" ? "pending" : "active",
          position: 0,
        })),
        reviewPending: true,
      };
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

  /** The checks of every upload: the size, the real type read from the bytes, and no pixel flood. */
  private async checkUpload(input: Buffer): Promise<void> {
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
  }

  /**
   * A photo sent in a chat (decision 020): checked like an upload (photo_too_large, photo_invalid) and
   * re-encoded as one JPEG without any metadata under an unguessable key. It belongs to no profile's
   * photos: the chat module keeps the key with its message and decides who may read it.
   */
  async storeChatPhoto(input: Buffer): Promise<{ key: string; width: number; height: number }> {
    await this.checkUpload(input);
    let full: { data: Buffer; info: { width: number; height: number } };
    try {
      full = await this.imageWork(() =>
        sharp(input, { limitInputPixels: PHOTO_UPLOAD.maxPixels })
          .rotate()
          .resize({ ...PHOTO_SIZES.full, fit: "inside", withoutEnlargement: true })
          .jpeg({ quality: 82, mozjpeg: true })
          .toBuffer({ resolveWithObject: true }),
      );
    } catch {
      throw new AppError("photo_invalid");
    }
    const key = `chat/${randomBytes(16).toString("hex")}.jpg`;
    await this.storage.put(key, full.data, "image/jpeg");
    return { key, width: full.info.width, height: full.info.height };
  }

  /** A chat photo's bytes (the chat module has checked who asks), or null when the file is gone. */
  chatPhoto(key: string): Promise<Buffer | null> {
    if (!/^chat\/[a-f0-9]{32}\.jpg$/.test(key)) return Promise.resolve(null);
    return this.storage.get(key);
  }

  /** Deletes chat photos' files (their messages went: a failed send, a block, the retention window). */
  async deleteChatPhotos(keys: readonly string[]): Promise<void> {
    for (const key of keys) if (/^chat\/[a-f0-9]{32}\.jpg$/.test(key)) await this.storage.delete(key);
  }

  /** Changes one of the member's own photos: main, premium-only, position. */
  async update(
    profileId: number,
    photoId: number,
    change: { main?: true; private?: boolean; position?: number },
  ): Promise<Photo[]> {
    const photo = await findPhotoOfProfile(this.db, photoId, profileId);
    if (!photo) throw new AppError("not_found");
    // Others never see a rejected photo: as the main one it would leave the profile without a face.
    if (change.main && photo.status === "rejected") throw new AppError("photo_rejected");
    if (change.main) await setMainPhoto(this.db, profileId, photoId);
    if (change.private !== undefined) await setPhotoPrivate(this.db, profileId, photoId, change.private);
    if (change.position !== undefined) await movePhoto(this.db, profileId, photoId, change.position);
    return this.listOwn(profileId);
  }

  /** Deletes one of the member's own photos with its files (and their blurred copy). */
  async remove(profileId: number, photoId: number): Promise<Photo[]> {
    const removed = await deletePhoto(this.db, profileId, photoId);
    if (!removed) throw new AppError("not_found");
    const blurred = removed.thumbFilename.replace(/-t\.jpg$/, "-b.jpg");
    await Promise.all([
      this.storage.delete(removed.filename),
      this.storage.delete(removed.thumbFilename),
      this.storage.delete(blurred),
    ]);
    return this.listOwn(profileId);
  }

  /** Photos waiting for review, oldest first, of one profile or all (the staff's queue). */
  inReview(limit: number, options: ReviewQueueOptions = {}): Promise<PhotoRow[]> {
    return photosInReview(this.db, limit, options);
  }

  countInReview(): Promise<number> {
    return countPhotosInReview(this.db);
  }

  /**
   * A moderator's decision on a photo waiting for review, in the caller's transaction (the staff audit
   * log's): approved, it is shown to others; rejected, to its owner only, with the reason. Null when the
   * photo no longer waits (deleted, or decided meanwhile).
   */
  decide(
    tx: DbOrTx,
    photoId: number,
    decision: { approve: true } | { approve: false; reason: ModerationReason },
  ): Promise<PhotoRow | null> {
    return decidePhoto(tx, photoId, decision);
  }

  /** A photo by id, whatever its status and owner (the staff's review). */
  async find(photoId: number): Promise<PhotoRow | undefined> {
    return (await photosByIds(this.db, [photoId]))[0];
  }

  /** A photo's stored bytes by id and size, whatever its status (the staff's review; the caller checks the role). */
  async bytesOf(photoId: number, size: "full" | "thumb"): Promise<Buffer | null> {
    const row = await this.find(photoId);
    if (!row) return null;
    return this.storage.get(size === "full" ? row.filename : row.thumbFilename);
  }

  async deleteFilesOfProfile(profileId: number): Promise<void> {
    for (const row of await photosOfProfile(this.db, profileId)) {
      await Promise.all([
        this.storage.delete(row.filename),
        this.storage.delete(row.thumbFilename),
        this.storage.delete(row.thumbFilename.replace(/-t\.jpg$/, "-b.jpg")),
      ]);
    }
  }

  /**
   * The photos' part of the data export (issue #27): each photo's details and its file as stored (the
   * full size; the thumbnail is the same picture smaller), pending and rejected ones included.
   */
  async exportFor({ profileId }: ExportSubject): Promise<ExportPart> {
    if (profileId === null) return { json: {} };
    const rows = await photosOfProfile(this.db, profileId);
    const files: ExportFile[] = [];
    const listed = [];
    for (const row of rows) {
      const bytes = await this.storage.get(row.filename);
      const file = bytes ? `photos/${row.id}.jpg` : null;
      if (bytes && file) files.push({ path: file, bytes });
      listed.push({
        id: row.id,
        file,
        status: row.status,
        in_review: row.reviewPending,
        reviewed_at: isoOrNull(row.reviewedAt),
        rejection_reason: row.rejectionReason,
        main: row.isMain,
        private: row.private,
        position: row.position,
        width: row.width,
        height: row.height,
        created_at: isoOrNull(row.createdAt),
      });
    }
    return { json: { photos: listed }, files };
  }

  async saveRows(rows: NewPhoto[]): Promise<void> {
    await insertPhotos(this.db, rows);
  }

  /** Whether `viewer` may see this photo's real bytes (spec §6; see docs/decisions/009). */
  static maySee(photo: Pick<PhotoRow, "profileId" | "isMain" | "private">, viewer: PhotoViewer | null): boolean {
    if (viewer?.profileId === photo.profileId) return true;
    if (viewer?.paid) return true;
    return photo.isMain && !photo.private;
  }

  /**
   * The bytes a request for `key` may receive, checked on every request: the owner gets every photo;
   * others only photos of a visible, active profile, and then the real bytes only when `maySee`
   * allows. A blurred key (`-b.jpg`) gives a blurred thumbnail made here, so a member who may not see
   * a photo never receives its real bytes, whatever URL they try.
   */
  async read(
    key: string,
    viewer: PhotoViewer | null,
    /** Whether the asker may see the owner's profile at all (active, visible, not blocked by it). */
    profileIsPublic: (profileId: number) => Promise<boolean>,
  ): Promise<{ bytes: Buffer; shared: boolean } | null> {
    const blurred = key.endsWith("-b.jpg");
    const source = blurred ? key.replace(/-b\.jpg$/, "-t.jpg") : key;
    const photo = await findPhotoByFile(this.db, source);
    if (!photo) return null;
    const own = viewer?.profileId === photo.profileId;
    if (!own && (photo.status !== "active" || !(await profileIsPublic(photo.profileId)))) return null;
    if (blurred) return { bytes: await this.blurredThumb(source, key), shared: true };
    if (!PhotoService.maySee(photo, viewer)) return null;
    const bytes = await this.storage.get(key);
    // Public main images may sit in shared caches; anything gated by who asks may not.
    return bytes ? { bytes, shared: photo.isMain && !photo.private && !own } : null;
  }

  private async blurredThumb(thumbKey: string, blurKey: string): Promise<Buffer> {
    // Any failure to read the cached copy (some object stores answer 403 for a missing key) only means
    // making it again.
    const cached = await this.storage.get(blurKey).catch(() => null);
    if (cached) return cached;
    const thumb = await this.storage.get(thumbKey);
    if (!thumb) throw new AppError("not_found");
    const bytes = await this.imageWork(() =>
      sharp(thumb).resize(80).blur(6).resize(PHOTO_SIZES.thumb.width, PHOTO_SIZES.thumb.height).jpeg({ quality: 60 }).toBuffer(),
    );
    await this.storage.put(blurKey, bytes, "image/jpeg");
    return bytes;
  }

  /** Another member's photos as `viewer` may see them: real URLs, or a blurred thumbnail when locked. */
  async forViewer(profileId: number, viewer: PhotoViewer | null) {
    const rows = (await photosOfProfile(this.db, profileId)).filter((row) => row.status === "active");
    const photos = rows.map((row) => {
      const locked = !PhotoService.maySee(row, viewer);
      return {
        id: row.id,
        thumb_url: this.urlOf(locked ? row.thumbFilename.replace(/-t\.jpg$/, "-b.jpg") : row.thumbFilename),
        url: locked ? null : this.urlOf(row.filename),
        locked,
        private: row.private,
      };
    });
    const main = rows.find((row) => row.isMain);
    const mainImage =
      main && PhotoService.maySee(main, viewer)
        ? { thumb_url: this.urlOf(main.thumbFilename), url: this.urlOf(main.filename), status: main.status }
        : null;
    const lockedCount = photos.filter((p) => p.locked).length;
    return { photos, mainImage, lockedCount };
  }
}
