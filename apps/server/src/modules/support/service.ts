import type { PaymentMethod, PaymentStatus, SupportDossier, SupportMemberHit, SupportPayment } from "@app/contract";
import { and, eq, gt } from "drizzle-orm";
import type { Db, DbOrTx, Tx } from "../../platform/db/index.ts";
import { AppError } from "../../platform/errors.ts";
import type { AccountSupport, SupportAccount } from "../accounts/index.ts";
import type { ChatSupport } from "../chat/index.ts";
import type { CreditService } from "../credits/index.ts";
import type { LikeSupport } from "../likes/index.ts";
import { type PaymentRow, PaymentSupport, type SupportRefund } from "../payments/index.ts";
import type { PhotoSupport } from "../photos/index.ts";
import type { ProfileSupport } from "../profiles/index.ts";
import { supportConversationAccess } from "./schema.ts";

/** How many hits a search answers. */
const SEARCH_LIMIT = 20;
/** How long a recorded reason opens a member's conversations to the staff member who gave it. */
export const CONVERSATION_ACCESS_MS = 30 * 60_000;
/** How much of each list the dossier shows. */
const DOSSIER_LIMITS = { ledger: 100, payments: 100, likes: 50, logins: 50, conversations: 100, messages: 200 };

export interface SupportDeps {
  db: Db;
  accounts: AccountSupport;
  profiles: ProfileSupport;
  photos: PhotoSupport;
  likes: LikeSupport;
  chat: ChatSupport;
  credits: CreditService;
  payments: PaymentSupport;
  /** The URL staff load a member's photo file from (the support routes serve it). */
  photoUrl(key: string): string;
}

/** Where staff load a member's photo file (the support routes serve it after the staff check). */
export const supportPhotoUrl = (key: string): string => `/staff/api/support/${key}`;

/** A credit correction's outcome (CreditService.change with the dialog's key). */
export interface Correction {
  before: number;
  balance: number;
  replayed: boolean;
}

/**
 * Support (issue #27): the member search over what each module owns (accounts: e-mail and id; profiles:
 * name; payments: payment id), the member's dossier, credit corrections and refunds (writes take the
 * staff audit's transaction), and conversations opened only by a recorded reason.
 */
export class SupportService {
  constructor(private readonly deps: SupportDeps) {}

  /**
   * Members matching `q`: a number is an id and an order number; one word is also a provider's payment id;
   * text is the start of an e-mail address and of a name. Ids first, then payments, e-mail, names.
   */
  async search(input: string): Promise<SupportMemberHit[]> {
    const q = input.trim();
    if (!q) return [];
    const { accounts, profiles, payments } = this.deps;
    const numeric = /^#?\d{1,10}$/.test(q);
    const oneWord = !/\s/.test(q);
    const [byId, byPayment, byEmail, byName] = await Promise.all([
      numeric && !q.startsWith("#") ? accounts.byIds([Number(q)]) : Promise.resolve([]),
      oneWord && !q.includes("@") ? payments.userIdsByReference(q) : Promise.resolve([]),
      numeric ? Promise.resolve([]) : accounts.byEmailPrefix(q, SEARCH_LIMIT),
      numeric || q.includes("@") ? Promise.resolve([]) : profiles.userIdsByNamePrefix(q, SEARCH_LIMIT),
    ]);
    const matched = new Map<number, SupportMemberHit["matched"]>();
    const note = (ids: number[], how: SupportMemberHit["matched"]) => {
      for (const id of ids) if (!matched.has(id)) matched.set(id, how);
    };
    note(
      byId.map((a) => a.userId),
      "id",
    );
    note(byPayment, "payment");
    note(
      byEmail.map((a) => a.userId),
      "email",
    );
    note(byName, "name");
    const ids = [...matched.keys()].slice(0, SEARCH_LIMIT);
    const known = new Map<number, SupportAccount>([...byId, ...byEmail].map((a) => [a.userId, a]));
    const missing = ids.filter((id) => !known.has(id));
    for (const account of await accounts.byIds(missing)) known.set(account.userId, account);
    const names = await profiles.namesByUser(ids);
    return ids.flatMap((id) => {
      const account = known.get(id);
      if (!account) return [];
      return [
        {
          user_id: id,
          email: account.email,
          name: names.get(id) ?? null,
          status: account.status,
          fictional: account.fictional,
          signup_date: account.signupDate.toISOString(),
          matched: matched.get(id) ?? "id",
        },
      ];
    });
  }

  /** Everything support sees of a member, for `staffId` (whether their conversations are open to them). */
  async dossier(userId: number, staffId: number): Promise<SupportDossier> {
    const d = this.deps;
    const account = await d.accounts.account(userId);
    if (!account) throw new AppError("not_found");
    const profile = await d.profiles.ofUser(userId);
    const [photos, likes, credits, ledger, payments, logins, openUntil] = await Promise.all([
      profile ? d.photos.ofProfile(profile.profileId) : Promise.resolve([]),
      profile ? d.likes.of(profile.profileId, DOSSIER_LIMITS.likes) : Promise.resolve({ sent: [], received: [] }),
      d.credits.account(d.db, userId),
      d.credits.latestLedger(d.db, userId, DOSSIER_LIMITS.ledger),
      d.payments.of(userId, DOSSIER_LIMITS.payments),
      d.accounts.logins(userId, DOSSIER_LIMITS.logins),
      this.conversationsOpenUntil(d.db, staffId, userId),
    ]);
    const cards = await d.profiles.cardsOf([...likes.sent, ...likes.received].map((like) => like.profileId));
    const presentLike = (like: { profileId: number; createdAt: Date; matchedAt: Date | null }) => {
      const card = cards.get(like.profileId);
      return {
        profile_id: like.profileId,
        user_id: card?.userId ?? null,
        name: card?.name ?? "",
        fictional: card?.fictional ?? false,
        created: like.createdAt.toISOString(),
        matched: like.matchedAt !== null,
      };
    };
    return {
      account: {
        user_id: account.userId,
        email: account.email,
        status: account.status,
        language: account.language,
        fictional: account.fictional,
        invisible: account.invisible,
        signup_date: account.signupDate.toISOString(),
        deletion_requested_at: account.deletionRequestedAt?.toISOString() ?? null,
      },
      profile: profile
        ? {
            profile_id: profile.profileId,
            name: profile.name,
            status: profile.status,
            gender: profile.gender,
            seeking: profile.seeking,
            birth_date: profile.birthDate,
            country: profile.country,
            region: profile.region,
            city: profile.city,
            about: profile.about,
            interests: profile.interests,
          }
        : null,
      photos: photos.map((photo) => ({
        id: photo.id,
        url: d.photoUrl(photo.key),
        thumb_url: d.photoUrl(photo.thumbKey),
        status: photo.status,
        is_main: photo.isMain,
        private: photo.private,
        created: photo.createdAt.toISOString(),
      })),
      credits: { balance: credits.credits, paid: credits.paid },
      ledger: ledger.map((row) => ({
        id: row.id,
        delta: row.delta,
        balance_after: row.balanceAfter,
        kind: row.reason,
        created: row.createdAt.toISOString(),
      })),
      payments: payments.payments.map(presentPayment),
      payment_flag: payments.flag ? { reason: payments.flag.reason, at: payments.flag.at.toISOString() } : null,
      likes: { sent: likes.sent.map(presentLike), received: likes.received.map(presentLike) },
      logins: logins.map((login) => ({
        method: login.method,
        address: login.address,
        user_agent: login.userAgent,
        created: login.createdAt.toISOString(),
      })),
      conversations_open_until: openUntil?.toISOString() ?? null,
    };
  }

  /**
   * A credit correction in the caller's (the audit's) transaction: `delta` credits added or taken with
   * the ledger kind `correction`, at most once per `key`, never below zero (correction_below_zero).
   */
  async correctCredits(tx: Tx, userId: number, input: { delta: number; key: string }): Promise<Correction> {
    if (!(await this.deps.accounts.account(userId, tx))) throw new AppError("not_found");
    const before = (await this.deps.credits.account(tx, userId)).credits;
    const change = await this.deps.credits.change(tx, {
      userId,
      delta: input.delta,
      reason: "correction",
      key: `support-correction:${input.key}`,
    });
    if (!change) throw new AppError("correction_below_zero", { balance: before });
    return { before, balance: change.balance, replayed: change.replayed };
  }

  /** A refund's first half in the audit's transaction (PaymentSupport.reserveRefund). */
  reserveRefund(tx: Tx, paymentId: number): Promise<SupportRefund> {
    return this.deps.payments.reserveRefund(tx, paymentId);
  }

  sendRefund(refund: SupportRefund): Promise<PaymentRow> {
    return this.deps.payments.sendRefund(refund.payment);
  }

  undoRefund(tx: Tx, refund: SupportRefund): Promise<number> {
    return this.deps.payments.undoRefund(tx, refund);
  }

  /** The member a payment belongs to (for the audit entry), or not_found. */
  async paymentOwner(paymentId: number): Promise<number> {
    const owner = await this.deps.payments.ownerOf(paymentId);
    if (owner === null) throw new AppError("not_found");
    return owner;
  }

  /** The bytes of a member's photo file (its storage key, full size or thumbnail), for staff. */
  async photoFile(key: string): Promise<Buffer | null> {
    return (await this.deps.photos.file(key))?.bytes ?? null;
  }

  /** Records a staff member's reason to read a member's conversations, in the audit's transaction. */
  async openConversations(tx: Tx, staffId: number, userId: number, reason: string): Promise<Date> {
    if (!(await this.deps.accounts.account(userId, tx))) throw new AppError("not_found");
    const expiresAt = new Date(Date.now() + CONVERSATION_ACCESS_MS);
    await tx.insert(supportConversationAccess).values({ staffId, userId, reason, expiresAt });
    return expiresAt;
  }

  /** The member's conversations; conversation_reason_required unless this staff member gave a reason. */
  async conversations(staffId: number, userId: number) {
    const profileId = await this.openProfile(staffId, userId);
    if (profileId === null) return [];
    const rows = await this.deps.chat.conversationsOf(profileId, DOSSIER_LIMITS.conversations);
    const cards = await this.deps.profiles.cardsOf(rows.map((row) => row.otherProfileId));
    return rows.map((row) => {
      const card = cards.get(row.otherProfileId);
      return {
        conversation_id: row.conversationId,
        other: {
          profile_id: row.otherProfileId,
          user_id: card?.userId ?? null,
          name: card?.name ?? "",
          fictional: card?.fictional ?? row.fictional,
        },
        messages: row.messages,
        updated: row.updatedAt.toISOString(),
      };
    });
  }

  /** One of the member's conversations, after the same check; a conversation not theirs is not_found. */
  async messages(staffId: number, userId: number, conversationId: number) {
    const profileId = await this.openProfile(staffId, userId);
    if (profileId === null || !(await this.deps.chat.isMemberOf(profileId, conversationId))) throw new AppError("not_found");
    const rows = await this.deps.chat.messagesOf(conversationId, DOSSIER_LIMITS.messages);
    return rows.map((row) => ({
      id: row.id,
      seq: row.seq,
      from_member: row.senderProfileId === profileId,
      kind: row.kind,
      text: row.text,
      gift_id: row.giftId,
      created: row.createdAt.toISOString(),
    }));
  }

  /** The member's profile id once their conversations are open to this staff member. */
  private async openProfile(staffId: number, userId: number): Promise<number | null> {
    if (!(await this.deps.accounts.account(userId))) throw new AppError("not_found");
    if (!(await this.conversationsOpenUntil(this.deps.db, staffId, userId))) throw new AppError("conversation_reason_required");
    return (await this.deps.profiles.ofUser(userId))?.profileId ?? null;
  }

  private async conversationsOpenUntil(db: DbOrTx, staffId: number, userId: number): Promise<Date | null> {
    const rows = await db
      .select({ expiresAt: supportConversationAccess.expiresAt })
      .from(supportConversationAccess)
      .where(
        and(
          eq(supportConversationAccess.staffId, staffId),
          eq(supportConversationAccess.userId, userId),
          gt(supportConversationAccess.expiresAt, new Date()),
        ),
      );
    const latest = Math.max(0, ...rows.map((row) => row.expiresAt.getTime()));
    return latest ? new Date(latest) : null;
  }
}

/** A payment as support sees it. */
export function presentPayment(row: PaymentRow): SupportPayment {
  return {
    payment_id: row.id,
    provider: row.provider,
    provider_id: row.providerId,
    status: row.status as PaymentStatus,
    credits: row.credits,
    amount: row.amountCents / 100,
    currency: row.currency,
    method: row.method as PaymentMethod,
    created: row.createdAt.toISOString(),
    paid_at: row.paidAt?.toISOString() ?? null,
    reversed_credits: row.reversedCredits,
    refund_requested_at: row.refundRequestedAt?.toISOString() ?? null,
    refundable: PaymentSupport.refundable(row),
  };
}
