import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { AppError } from "../../platform/errors.ts";
import type { VisibilityPolicy } from "../visibility/index.ts";
import type { PhotoService, PhotoViewer } from "./service.ts";

const keySchema = z.string().regex(/^[a-f0-9]{32}(-t|-b)?\.jpg$/);

/** GET /cdn/photos/<key>: photo bytes after an access check on every request. */
export async function photoRoutes(
  app: FastifyInstance,
  {
    photos,
    visibility,
    viewer,
  }: {
    photos: PhotoService;
    visibility: Pick<VisibilityPolicy, "canSee">;
    /** Who asks (their own profile, premium or not), or null for a visitor. */
    viewer: (request: FastifyRequest) => Promise<PhotoViewer | null>;
  },
): Promise<void> {
  app.get<{ Params: { key: string } }>("/cdn/photos/:key", async (request, reply) => {
    const key = keySchema.safeParse(request.params.key);
    if (!key.success) throw new AppError("not_found");
    const who = await viewer(request);
    // A member the owner blocked gets nothing, as if the photo did not exist (spec §6).
    const found = await photos.read(`photos/${key.data}`, who, (id) => visibility.canSee(who?.profileId ?? null, id));
    if (!found) throw new AppError("not_found");
    // Short-lived either way: a member who turns invisible or deletes the photo is gone within minutes.
    return reply
      .header("content-type", "image/jpeg")
      .header("cache-control", found.shared ? "public, max-age=300" : "private, max-age=300")
      .header("vary", "cookie")
      .send(found.bytes);
  });
}
