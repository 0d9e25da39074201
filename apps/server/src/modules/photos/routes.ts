import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { AppError } from "../../platform/errors.ts";
import type { ProfileService } from "../profiles/service.ts";
import type { PhotoService } from "./service.ts";

const keySchema = z.string().regex(/^[a-f0-9]{32}(-t)?\.jpg$/);

/** GET /cdn/photos/<key>: photo bytes after an access check on every request. */
export async function photoRoutes(
  app: FastifyInstance,
  {
    photos,
    profiles,
    ownerProfileId,
  }: {
    photos: PhotoService;
    profiles: Pick<ProfileService, "isPublic">;
    /** The requesting member's own profile id (they always see their own photos), or null. */
    ownerProfileId: (request: FastifyRequest) => Promise<number | null>;
  },
): Promise<void> {
  app.get<{ Params: { key: string } }>("/cdn/photos/:key", async (request, reply) => {
    const key = keySchema.safeParse(request.params.key);
    if (!key.success) throw new AppError("not_found");
    const file = `photos/${key.data}`;
    const bytes = await photos.readPublic(file, (id) => profiles.isPublic(id));
    if (!bytes) {
      const own = await ownerProfileId(request);
      const mine = own ? await photos.readOwn(file, own) : null;
      if (!mine) throw new AppError("not_found");
      return reply.header("content-type", "image/jpeg").header("cache-control", "private, max-age=300").send(mine);
    }
    // Short-lived: a member who turns invisible or deletes the photo is gone from caches within minutes.
    return reply.header("content-type", "image/jpeg").header("cache-control", "public, max-age=300").send(bytes);
  });
}
