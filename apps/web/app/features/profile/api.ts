import { ownProfileResponseSchema, type ProfileUpdate, photosResponseSchema, type photoUpdateSchema } from "@app/contract";
import { queryOptions } from "@tanstack/react-query";
import type { z } from "zod";
import { jsonBody, sessionCall } from "../../lib/api";

/** GET /api/profile.php: the member's own profile. */
export async function getOwnProfile() {
  const { profile } = await sessionCall("/api/profile.php", ownProfileResponseSchema);
  return profile;
}

/**
 * The own profile in the query cache (decision 013). Loaded afresh each time a page needs it, as
 * forms copy it into their own state when they open; nothing is kept after they close (gcTime 0).
 */
export const ownProfileQuery = queryOptions({ queryKey: ["own-profile"], queryFn: getOwnProfile, gcTime: 0 });

/** PUT /api/profile.php: any subset of the editable fields. */
export async function updateProfile(update: ProfileUpdate) {
  const { profile } = await sessionCall("/api/profile.php", ownProfileResponseSchema, jsonBody("PUT", update));
  return profile;
}

/** GET /api/photos.php: the member's own photos and how many they may have. */
export function getPhotos() {
  return sessionCall("/api/photos.php", photosResponseSchema);
}

/** POST /api/photos.php: upload one photo (multipart, field `photo`). */
export async function uploadPhoto(file: File) {
  const body = new FormData();
  body.append("photo", file);
  return sessionCall("/api/photos.php", photosResponseSchema, { method: "POST", body });
}

/** What PUT /api/photo.php changes on one photo: make it the main photo, premium-only or not, or move it (0-based). */
export type PhotoChange = Omit<z.infer<typeof photoUpdateSchema>, "id">;

/** PUT /api/photo.php: change one of the member's photos; answers all of them in their new order. */
export function updatePhoto(id: number, change: PhotoChange) {
  return sessionCall("/api/photo.php", photosResponseSchema, jsonBody("PUT", { id, ...change }));
}

/** DELETE /api/photo.php?id=: delete one photo (deleting the main photo makes the next one main). */
export function deletePhoto(id: number) {
  return sessionCall(`/api/photo.php?id=${encodeURIComponent(String(id))}`, photosResponseSchema, { method: "DELETE" });
}
