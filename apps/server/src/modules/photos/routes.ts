import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { AppError } from "../../platform/errors.ts";
import type { ProfileService } from "../profiles/service.ts";
import type { PhotoService } from "./service.ts";

const keySchema = z.string().regex(/^[a-f0-9]{32}(-t)?\.jpg$/);

/** GET /cdn/photos/<key>: photo bytes after an access check on every request. */
export async function photoRoutes(
  app: FastifyInstance,
  { photos, profiles }: { photos: PhotoService; profiles: Pick<ProfileService, "isPublic"> },
): Promise<void> {
  app.get<{ Params: { key: string } }>("/cdn/photos/:key", async (request, reply) => {
    const key = keySchema.safeParse(request.params.key);
    if (!key.success) throw new AppError("not_found");
    const bytes = await photos.readPublic(`photos/${key.data}`, (id) => profiles.isPublic(id));
    if (!bytes) throw new AppError("not_found");
    // Short-lived: a member who turns invisible or deletes the photo is gone from caches within minutes.
    return reply.header("content-type", "image/jpeg").header("cache-control", "public, max-age=300").send(bytes);
  });
}
