import { ENDPOINTS } from "@app/contract";
import type { FastifyInstance } from "fastify";
import { AppError } from "../../platform/errors.ts";
import { handle } from "../../platform/http/endpoint.ts";
import type { LocationService } from "./service.ts";

/** GET /api/geocode.php?lat=&lon= (spec §7): country, region and city of a point, or 404 (the client stores false). */
export async function locationRoutes(app: FastifyInstance, { location }: { location: LocationService }): Promise<void> {
  handle(
    app,
    ENDPOINTS.geocode,
    async ({ query: { lat, lon } }) => {
      const found = location.reverse(lat, lon);
      if (!found) throw new AppError("not_found");
      return found;
    },
    { rateLimit: { max: 60, timeWindow: "1 minute" } },
  );
}
