import { ENDPOINTS, LIMITS, type MemberContext, type MemberResponse, PHOTO_UPLOAD } from "@app/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "../../platform/errors.ts";
import { handle } from "../../platform/http/endpoint.ts";
import { requestHost, requestLocale } from "../../platform/http/request-locale.ts";
import type { PhotoService } from "../photos/service.ts";
import type { SiteService } from "../site/service.ts";
import type { ProfileService } from "./service.ts";

/** Spec §9: 3 photos for free members, 25 for premium. */
export const photoLimitOf = (member: Pick<MemberContext, "paid">) => (member.paid ? LIMITS.premiumPhotos : LIMITS.freePhotos);

export interface ProfileRoutesOptions {
  profiles: ProfileService;
  photos: PhotoService;
  site: SiteService;
  /**
   * What the app adds once a member's profile was shown to `member` (issue #29: the presence label, and the
   * visit the visits module records); modules that build on profiles, so composed by the app.
   */
  afterView?: (member: MemberContext | null, view: MemberResponse) => Promise<MemberResponse>;
}

/** Member views, and the member's own profile and photos (see the contract's endpoint table). */
export async function profileRoutes(
  app: FastifyInstance,
  { profiles, photos, site, afterView }: ProfileRoutesOptions,
): Promise<void> {
  const settingsOf = (request: FastifyRequest) => site.settingsFor(requestHost(request), requestLocale(request));

  // One member's profile, as the asker may see it (visitors too: profile pages are public).
  handle(app, ENDPOINTS.member, async ({ request, member, query }) => {
    const view = await profiles.memberView(query.id, await profiles.askerOf(member), await settingsOf(request));
    if (!view) throw new AppError("not_found");
    return afterView ? afterView(member, view) : view;
  });

  handle(app, ENDPOINTS.ownProfile, async ({ member }) => ({ profile: await profiles.own(member.userId, photoLimitOf(member)) }));

  handle(app, ENDPOINTS.saveProfile, async ({ request, member, body }) => {
    const regions = site.regions();
    const profile = await profiles.update(member.userId, body, {
      photoLimit: photoLimitOf(member),
      servedCountries: Object.keys(regions),
      regionsOf: (country) => (regions[country] ?? []).map((r) => r.code),
      review: (await settingsOf(request)).moderation,
    });
    return { profile };
  });

  handle(app, ENDPOINTS.photos, async ({ member }) => ({
    photos: await photos.listOwn(member.profileId),
    photo_limit: photoLimitOf(member),
  }));

  handle(app, ENDPOINTS.updatePhoto, async ({ member, body: { id, ...change } }) => ({
    photos: await photos.update(member.profileId, id, change),
    photo_limit: photoLimitOf(member),
  }));

  handle(app, ENDPOINTS.deletePhoto, async ({ member, query }) => ({
    photos: await photos.remove(member.profileId, query.id),
    photo_limit: photoLimitOf(member),
  }));

  handle(app, ENDPOINTS.uploadPhoto, async ({ request, member }) => {
    if (!request.isMultipart()) throw new AppError("unsupported_media_type");
    let file: Awaited<ReturnType<typeof request.file>>;
    try {
      file = await request.file({ limits: { files: 1, fileSize: PHOTO_UPLOAD.maxBytes } });
    } catch {
      throw new AppError("photo_invalid");
    }
    if (file?.fieldname !== "photo") throw new AppError("photo_invalid");
    const buffer = await file.toBuffer().catch(() => {
      throw new AppError("photo_too_large");
    });
    if (file.file.truncated) throw new AppError("photo_too_large");
    const limit = photoLimitOf(member);
    const review = (await settingsOf(request)).moderation;
    return { photos: await photos.upload(member.profileId, buffer, limit, review), photo_limit: limit };
  });
}
