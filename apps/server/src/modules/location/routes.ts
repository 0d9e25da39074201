import { type GeocodeResponse, geocodeQuerySchema } from "@app/contract";
import type { FastifyInstance } from "fastify";
import { AppError } from "../../platform/errors.ts";
import { parseInput } from "../../platform/http/errors.ts";
import type { LocationService } from "./service.ts";

/** GET /api/geocode.php?lat=&lon= (spec §7): country, region and city of a point, or 404 (the client stores false). */
export async function locationRoutes(app: FastifyInstance, { location }: { location: LocationService }): Promise<void> {
  app.get(
    "/api/geocode.php",
    { config: { rateLimit: { max: 60, timeWindow: "1 minute" } } },
    async (request): Promise<GeocodeResponse> => {
      const { lat, lon } = parseInput(geocodeQuerySchema, request.query ?? {});
      const found = location.reverse(lat, lon);
      if (!found) throw new AppError("not_found");
      return found;
    },
  );
}
