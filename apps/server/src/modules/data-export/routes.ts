import { ENDPOINTS } from "@app/contract";
import type { FastifyInstance, FastifyReply } from "fastify";
import { handle } from "../../platform/http/endpoint.ts";
import type { DataExport, DataExportService } from "./service.ts";

/** Downloads per client address and hour: a ZIP is built in memory for each (service.ts, "Size"). */
export const EXPORT_RATE_LIMIT = { max: 5, timeWindow: "1 hour" };

/** Sends an export as a download that no cache keeps (the member's and staff's routes alike). */
export function sendExport(reply: FastifyReply, built: DataExport): FastifyReply {
  return reply
    .header("content-type", "application/zip")
    .header("content-disposition", `attachment; filename="${built.filename}"`)
    .header("cache-control", "no-store")
    .send(Buffer.from(built.zip.buffer, built.zip.byteOffset, built.zip.byteLength));
}

/** GET /api/export.php: the member's own data export (GDPR art. 15/20, issue #27), from their settings. */
export async function dataExportRoutes(app: FastifyInstance, { exports }: { exports: DataExportService }): Promise<void> {
  handle(app, ENDPOINTS.dataExport, async ({ member, reply }) => sendExport(reply, await exports.build(member.userId)), {
    rateLimit: EXPORT_RATE_LIMIT,
  });
}
