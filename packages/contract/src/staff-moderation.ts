import { z } from "zod";
import { idQueryValueSchema } from "./http.ts";
import { moderationReasonSchema } from "./moderation.ts";
import { staffEndpoint } from "./staff.ts";

/** The member an item in the review queue belongs to. */
const queueMemberSchema = z.object({
  /** The member's account (user) id: the audit log and the member view go by it. */
  id: z.number().int(),
  profile_id: z.number().int(),
  name: z.string(),
});

const itemBase = {
  member: queueMemberSchema,
  /** When it was uploaded or written; the queue is oldest first. */
  submitted_at: z.string(),
  /** Others see it meanwhile (the site reviews after). */
  live: z.boolean(),
};

/** One photo or about text waiting for review. */
export const moderationItemSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("photo"),
    id: z.number().int(),
    ...itemBase,
    is_main: z.boolean(),
    private: z.boolean(),
    /** The photo's bytes for staff (whatever its status), thumbnail and full size. */
    thumb_url: z.string(),
    url: z.string(),
  }),
  z.object({
    kind: z.literal("about"),
    /** The profile's id. */
    id: z.number().int(),
    ...itemBase,
    text: z.string(),
    /** The last approved text: what others see while it waits (reviewing before) and what a rejection reverts to. */
    approved_text: z.string(),
  }),
]);
export type ModerationItem = z.infer<typeof moderationItemSchema>;

/** An item a moderator decides on: `submitted_at` names the version of an about text they saw. */
export const moderationItemRefSchema = z.object({
  kind: z.enum(["photo", "about"]),
  id: z.number().int().positive(),
  submitted_at: z.iso.datetime({ offset: true }),
});
export type ModerationItemRef = z.infer<typeof moderationItemRefSchema>;

export const MODERATION_QUEUE_PAGE = 50;

export const moderationDecisionSchema = z
  .object({
    decision: z.enum(["approve", "reject"]),
    /** Required to reject; the member reads it in their language. */
    reason: moderationReasonSchema.optional(),
    /** One item, or a bulk approval of many. */
    items: z.array(moderationItemRefSchema).min(1).max(MODERATION_QUEUE_PAGE),
  })
  .refine((body) => body.decision === "approve" || body.reason !== undefined, {
    path: ["reason"],
    message: "required",
  });

const refListSchema = z.array(moderationItemRefSchema.pick({ kind: true, id: true }));

/** The review of photos and about texts (issue #27): moderators, and admins. */
export const STAFF_MODERATION_ENDPOINTS = {
  // Named after the area: ALL_STAFF_ENDPOINTS spreads every area's table into one.
  moderationQueue: staffEndpoint({
    method: "GET",
    path: "/staff/api/moderation",
    roles: ["moderator"],
    /** `member`: only this member's (user id) items. */
    query: z.object({ member: idQueryValueSchema.optional() }),
    response: z.object({
      items: z.array(moderationItemSchema),
      waiting: z.object({ photos: z.number().int(), about: z.number().int() }),
    }),
  }),
  moderationDecide: staffEndpoint({
    method: "POST",
    path: "/staff/api/moderation/decisions",
    roles: ["moderator"],
    body: moderationDecisionSchema,
    response: z.object({
      decided: refListSchema,
      /** Items that no longer waited (decided meanwhile, deleted, or an about text changed since). */
      stale: refListSchema,
    }),
  }),
};
