import {
  LIMITS,
  type MemberResponse,
  memberQuerySchema,
  type OwnProfile,
  photoIdQuerySchema,
  photoUpdateSchema,
  profileUpdateSchema,
} from "@app/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "../../platform/errors.ts";
import { parseInput } from "../../platform/http/errors.ts";
import { requestHost, requestLocale } from "../../platform/http/request-locale.ts";
import { currentUser, requireUser } from "../accounts/http.ts";
import type { AccountService } from "../accounts/service.ts";
import type { PhotoService } from "../photos/service.ts";
import type { SiteService } from "../site/service.ts";
import type { Asker, ProfileService } from "./service.ts";

/** Spec §9: 3 photos for free members, 25 for premium. */
export const photoLimitOf = (user: { paidUser: boolean }) => (user.paidUser ? LIMITS.premiumPhotos : LIMITS.freePhotos);

export interface ProfileRoutesOptions {
  accounts: AccountService;
  profiles: ProfileService;
  photos: PhotoService;
  site: SiteService;
}

/** Who asks (session), as the search (search module) and the member view need it. */
export async function askerOf(
  request: FastifyRequest,
  accounts: AccountService,
  profiles: ProfileService,
): Promise<Asker | null> {
  const user = await currentUser(request, accounts);
  if (!user) return null;
  return profiles.askerOf(user.id, user.paidUser);
}

/** The member's own profile and photos: GET/PUT /api/profile.php, GET/POST /api/photos.php. */
export async function profileRoutes(
  app: FastifyInstance,
  { accounts, profiles, photos, site }: ProfileRoutesOptions,
): Promise<void> {
  const settingsOf = (request: FastifyRequest) =>
    site.settings({ host: requestHost(request), locale: requestLocale(request), geoipCountry: null, selectedCountry: null });

  // One member's profile, as the asker may see it (visitors too: profile pages are public).
  app.get("/api/member.php", async (request): Promise<MemberResponse> => {
    const { id } = parseInput(memberQuerySchema, request.query ?? {});
    const view = await profiles.memberView(id, await askerOf(request, accounts, profiles), await settingsOf(request));
    if (!view) throw new AppError("not_found");
    return view;
  });

  app.get("/api/profile.php", async (request): Promise<{ profile: OwnProfile }> => {
    const user = await requireUser(request, accounts);
    return { profile: await profiles.own(user.id, photoLimitOf(user)) };
  });

  app.put("/api/profile.php", async (request): Promise<{ profile: OwnProfile }> => {
    const user = await requireUser(request, accounts);
    const patch = parseInput(profileUpdateSchema, request.body);
    const regions = site.regions();
    const profile = await profiles.update(user.id, patch, {
      photoLimit: photoLimitOf(user),
      servedCountries: Object.keys(regions),
      regionsOf: (country) => (regions[country] ?? []).map((r) => r.code),
    });
    return { profile };
  });

  app.get("/api/photos.php", async (request) => {
    const user = await requireUser(request, accounts);
    const profileId = await profiles.profileIdOfUser(user.id);
    return { photos: await photos.listOwn(profileId), photo_limit: photoLimitOf(user) };
  });

  app.put("/api/photo.php", async (request) => {
    const user = await requireUser(request, accounts);
    const { id, ...change } = parseInput(photoUpdateSchema, request.body);
    const profileId = await profiles.profileIdOfUser(user.id);
    return { photos: await photos.update(profileId, id, change), photo_limit: photoLimitOf(user) };
  });

  app.delete("/api/photo.php", async (request) => {
    const user = await requireUser(request, accounts);
    const { id } = parseInput(photoIdQuerySchema, request.query ?? {});
    const profileId = await profiles.profileIdOfUser(user.id);
    return { photos: await photos.remove(profileId, id), photo_limit: photoLimitOf(user) };
  });

  app.post("/api/photos.php", async (request) => {
    const user = await requireUser(request, accounts);
    if (!request.isMultipart()) throw new AppError("unsupported_media_type");
    let file: Awaited<ReturnType<typeof request.file>>;
    try {
      file = await request.file({ limits: { files: 1, fileSize: 10 * 1024 * 1024 } });
    } catch {
      throw new AppError("photo_invalid");
    }
    if (file?.fieldname !== "photo") throw new AppError("photo_invalid");
    const buffer = await file.toBuffer().catch(() => {
      throw new AppError("photo_too_large");
    });
    if (file.file.truncated) throw new AppError("photo_too_large");
    const profileId = await profiles.profileIdOfUser(user.id);
    const limit = photoLimitOf(user);
    return { photos: await photos.upload(profileId, buffer, limit), photo_limit: limit };
  });
}
