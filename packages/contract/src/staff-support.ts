import { z } from "zod";
import { idQueryValueSchema } from "./http.ts";
import { paymentMethodSchema, paymentStatusSchema } from "./payments.ts";
import { staffEndpoint } from "./staff.ts";

/**
 * Support (issue #27): find a member by e-mail, name, id or payment id; their dossier (account,
 * profile, photos, likes, credits, payments, logins, the audit log, and their conversations only after
 * a recorded reason); credit corrections through the ledger and refunds through the payment provider.
 * Role: support (admin implicitly). Every write goes through the staff audit log.
 */

/** How a search hit matched: each module answers for what it owns. */
export const SUPPORT_MATCHES = ["id", "email", "name", "payment"] as const;

export const supportMemberHitSchema = z.object({
  user_id: z.number().int(),
  email: z.string().nullable(),
  name: z.string().nullable(),
  status: z.string(),
  fictional: z.boolean(),
  signup_date: z.string(),
  matched: z.enum(SUPPORT_MATCHES),
});
export type SupportMemberHit = z.infer<typeof supportMemberHitSchema>;

const memberParams = z.object({ userId: idQueryValueSchema });
const time = z.string();

export const supportPaymentSchema = z.object({
  payment_id: z.number().int(),
  provider: z.string(),
  provider_id: z.string().nullable(),
  status: paymentStatusSchema,
  credits: z.number().int(),
  amount: z.number(),
  currency: z.string(),
  method: paymentMethodSchema,
  created: time,
  paid_at: time.nullable(),
  /** Credits taken back by a refund or chargeback. */
  reversed_credits: z.number().int(),
  refund_requested_at: time.nullable(),
  /** Support may refund it now (paid, not refunded or asked to be). */
  refundable: z.boolean(),
});
export type SupportPayment = z.infer<typeof supportPaymentSchema>;

const likeSchema = z.object({
  profile_id: z.number().int(),
  user_id: z.number().int().nullable(),
  name: z.string(),
  fictional: z.boolean(),
  created: time,
  matched: z.boolean(),
});

export const supportDossierSchema = z.object({
  account: z.object({
    user_id: z.number().int(),
    email: z.string().nullable(),
    status: z.string(),
    language: z.string(),
    fictional: z.boolean(),
    invisible: z.boolean(),
    signup_date: time,
    deletion_requested_at: time.nullable(),
  }),
  profile: z
    .object({
      profile_id: z.number().int(),
      name: z.string(),
      status: z.string(),
      gender: z.string(),
      seeking: z.string(),
      birth_date: z.string(),
      country: z.string(),
      region: z.string().nullable(),
      city: z.string().nullable(),
      about: z.string(),
      interests: z.array(z.string()),
    })
    .nullable(),
  photos: z.array(
    z.object({
      id: z.number().int(),
      url: z.string(),
      thumb_url: z.string(),
      status: z.string(),
      is_main: z.boolean(),
      /** Locked: premium-only, others without premium see it blurred. */
      private: z.boolean(),
      created: time,
    }),
  ),
  credits: z.object({ balance: z.number().int(), paid: z.boolean() }),
  ledger: z.array(
    z.object({ id: z.number().int(), delta: z.number().int(), balance_after: z.number().int(), kind: z.string(), created: time }),
  ),
  payments: z.array(supportPaymentSchema),
  /** Set when a refund or chargeback took credits back (refund_after_spending, chargeback, …). */
  payment_flag: z.object({ reason: z.string(), at: time }).nullable(),
  likes: z.object({ sent: z.array(likeSchema), received: z.array(likeSchema) }),
  logins: z.array(z.object({ method: z.string(), address: z.string(), user_agent: z.string(), created: time })),
  /** Until when this staff member may read the conversations (a recorded reason); null: not now. */
  conversations_open_until: time.nullable(),
});
export type SupportDossier = z.infer<typeof supportDossierSchema>;

export const supportConversationSchema = z.object({
  conversation_id: z.number().int(),
  other: z.object({
    profile_id: z.number().int(),
    user_id: z.number().int().nullable(),
    name: z.string(),
    fictional: z.boolean(),
  }),
  messages: z.number().int(),
  updated: time,
});

export const supportMessageSchema = z.object({
  id: z.number().int(),
  seq: z.number().int(),
  /** Written by the member of the dossier (else by the other side). */
  from_member: z.boolean(),
  kind: z.string(),
  text: z.string(),
  gift_id: z.string().nullable(),
  created: time,
});

/** A staff member's written reason to read a member's conversations (kept in the audit log). */
export const supportReasonSchema = z.string().trim().min(5).max(500);

export const SUPPORT_CORRECTION_MAX = 100_000;

export const STAFF_SUPPORT_ENDPOINTS = {
  search: staffEndpoint({
    method: "GET",
    path: "/staff/api/support/members",
    roles: ["support"],
    query: z.object({ q: z.string().trim().min(1).max(200) }),
    response: z.object({ members: z.array(supportMemberHitSchema) }),
  }),
  dossier: staffEndpoint({
    method: "GET",
    path: "/staff/api/support/members/:userId",
    roles: ["support"],
    params: memberParams,
    response: supportDossierSchema,
  }),
  correctCredits: staffEndpoint({
    method: "POST",
    path: "/staff/api/support/members/:userId/credits",
    roles: ["support"],
    params: memberParams,
    body: z.object({
      /** Credits to add (> 0) or take (< 0); a balance never goes below zero. */
      delta: z
        .number()
        .int()
        .min(-SUPPORT_CORRECTION_MAX)
        .max(SUPPORT_CORRECTION_MAX)
        .refine((n) => n !== 0),
      reason: supportReasonSchema,
      /** The dialog's idempotency key: a double click or a retry corrects once. */
      key: z.string().uuid(),
    }),
    response: z.object({ balance: z.number().int(), replayed: z.boolean() }),
  }),
  refund: staffEndpoint({
    method: "POST",
    path: "/staff/api/support/payments/:paymentId/refund",
    roles: ["support"],
    params: z.object({ paymentId: idQueryValueSchema }),
    body: z.object({ reason: supportReasonSchema }),
    response: z.object({
      payment: supportPaymentSchema,
      /** Credits taken back from the balance. */
      taken: z.number().int(),
      /** The bundle's credits already spent, which stay spent (the balance never goes below zero). */
      spent: z.number().int(),
      balance: z.number().int(),
      replayed: z.boolean(),
    }),
  }),
  openConversations: staffEndpoint({
    method: "POST",
    path: "/staff/api/support/members/:userId/conversations/access",
    roles: ["support"],
    params: memberParams,
    body: z.object({ reason: supportReasonSchema }),
    response: z.object({ open_until: time }),
  }),
  conversations: staffEndpoint({
    method: "GET",
    path: "/staff/api/support/members/:userId/conversations",
    roles: ["support"],
    params: memberParams,
    response: z.object({ conversations: z.array(supportConversationSchema) }),
  }),
  messages: staffEndpoint({
    method: "GET",
    path: "/staff/api/support/members/:userId/conversations/:conversationId",
    roles: ["support"],
    params: z.object({ userId: idQueryValueSchema, conversationId: idQueryValueSchema }),
    response: z.object({ messages: z.array(supportMessageSchema) }),
  }),
} as const;
