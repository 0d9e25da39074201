import { ENDPOINTS } from "@app/contract";
import type { FastifyInstance } from "fastify";
import { handle } from "../../platform/http/endpoint.ts";
import type { BadgeService } from "./service.ts";

/** GET /api/badges.php. */
export async function badgeRoutes(app: FastifyInstance, { badges }: { badges: BadgeService }): Promise<void> {
  handle(app, ENDPOINTS.badges, async ({ member }) => badges.of(member.profileId));
}
