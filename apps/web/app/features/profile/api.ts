import { ownProfileResponseSchema, type ProfileUpdate, photosResponseSchema } from "@app/contract";
import { jsonBody, sessionCall } from "../../lib/api";

/** GET /api/profile.php: the member's own profile. */
export async function getOwnProfile() {
  const { profile } = await sessionCall("/api/profile.php", ownProfileResponseSchema);
  return profile;
}

/** PUT /api/profile.php: any subset of the editable fields. */
export async function updateProfile(update: ProfileUpdate) {
  const { profile } = await sessionCall("/api/profile.php", ownProfileResponseSchema, jsonBody("PUT", update));
  return profile;
}

/** POST /api/photos.php: upload one photo (multipart, field `photo`). */
export async function uploadPhoto(file: File) {
  const body = new FormData();
  body.append("photo", file);
  return sessionCall("/api/photos.php", photosResponseSchema, { method: "POST", body });
}
