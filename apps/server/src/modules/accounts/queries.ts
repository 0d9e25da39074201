import { and, eq, gt, isNull, lt, ne, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db, DbOrTx } from "../../platform/db/index.ts";
import { accountTokens, loginDevices, loginFailures, sessions, signupMessages, users } from "./schema.ts";

export type UserRow = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
export type TokenKind = (typeof accountTokens.$inferSelect)["kind"];

/**
 * "The member of `userIdColumn` is visible to others" (not invisible, not pending deletion), as a
 * condition for other modules' queries: a probe of the small users_hidden index, never a scan of users.
 */
export function visibleUserCondition(userIdColumn: SQL): SQL {
  // Written as "no hidden user with this id" (the column is a foreign key, so the user exists): the hidden
  // users are few and sit in the partial index users_hidden, so a list can check them with one small hash
  // instead of one users lookup per row (decision 018). Aliased, so a caller passing users' own column
  // compares with its row.
  const u = alias(users, "hidden_user");
  return sql`not exists (select 1 from ${users} as ${sql.identifier("hidden_user")} where ${u.id} = ${userIdColumn} and ${hiddenRule(u)})`;
}

/**
 * Who others may not see (the rule of `accounts_member_hidden`, migration 0030): invisible, pending
 * deletion, or banned until a time still to come. Every arm implies users_hidden's predicate, so the
 * planner may answer it from that small index.
 */
function hiddenRule(u: { invisible: SQLWrapper; status: SQLWrapper; bannedUntil: SQLWrapper }): SQL {
  return sql`(${u.invisible} or ${u.status} = 'pending_deletion' or (${u.bannedUntil} is not null and ${u.bannedUntil} > now()))`;
}

/**
 * Issue #29: a condition on a user id column: that member's presence ("online", "active today", "active
 * this week") may be shown, to others and, since hiding is mutual, to themself as an asker: they are not
 * invisible and do not hide it. A probe of the small partial index users_presence_hidden. The search's
 * "online now" filter uses it too, so a member who hides their status is never found as online.
 */
export function presenceShownCondition(userIdColumn: SQL): SQL {
  const u = alias(users, "presence_hidden_user");
  return sql`not exists (select 1 from ${users} as ${sql.identifier("presence_hidden_user")} where ${u.id} = ${userIdColumn} and (${u.invisible} or ${u.hidePresence}))`;
}

/**
 * A condition on a user id column: that member has not confirmed their e-mail address yet (and is not
 * hidden: invisible or banned): chat shows their conversations to the other member, who cannot reply yet (spec §6).
 */
export function unconfirmedUserCondition(userIdColumn: SQL): SQL {
  const u = alias(users, "unconfirmed_user");
  return sql`exists (select 1 from ${users} as ${sql.identifier("unconfirmed_user")} where ${u.id} = ${userIdColumn} and ${u.status} = 'not_confirmed' and not ${hiddenRule(u)})`;
}

/**
 * A lent subquery: the ids of the members others may not see (the few in users_hidden). Long lists that
 * count every row check against this set, hashed once, instead of looking up each row's member.
 */
export function hiddenUserIds(): SQL {
  const u = alias(users, "hidden_users");
  return sql`select ${u.id} from ${users} as ${sql.identifier("hidden_users")} where ${hiddenRule(u)}`;
}

export async function insertUser(db: DbOrTx, row: NewUser): Promise<UserRow> {
  const [created] = await db.insert(users).values(row).returning();
  if (!created) throw new Error("user insert returned nothing");
  return created;
}

export async function findUserByEmail(db: DbOrTx, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email.toLowerCase())).limit(1);
  return row;
}

export async function findUser(db: DbOrTx, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

export async function updateUser(db: DbOrTx, id: number, values: Partial<NewUser>): Promise<UserRow | undefined> {
  const [row] = await db.update(users).set(values).where(eq(users.id, id)).returning();
  return row;
}

// Sessions

export async function insertSession(db: DbOrTx, userId: number, tokenHash: string, expiresAt: Date): Promise<void> {
  await db.insert(sessions).values({ userId, tokenHash, expiresAt });
}

/**
 * What other modules lend to the member context, as SQL on a user id column (their tables, their
 * rules): the profile id and the city centre (profiles), the balance and the premium flag (credits).
 */
export interface LentMemberColumns {
  profileId: SQL<number | null>;
  latitude: SQL<number | null>;
  longitude: SQL<number | null>;
  credits: SQL<number>;
  paid: SQL<boolean>;
}

/** The account row with the lent columns of its member, for one select. */
/**
 * The account columns of a member context, and no others: the statement runs on every request with a
 * session cookie, so the password hash and the rest of the row stay in the database.
 */
const memberUserColumns = {
  id: users.id,
  status: users.status,
  email: users.email,
  language: users.language,
  invisible: users.invisible,
  hidePresence: users.hidePresence,
  signupDate: users.signupDate,
  notificationsDisabled: users.notificationsDisabled,
  promotionsConsentAt: users.promotionsConsentAt,
};
export type MemberUserRow = Pick<UserRow, keyof typeof memberUserColumns>;

function memberSelection(lent: (userId: SQL) => LentMemberColumns) {
  return { user: memberUserColumns, ...lent(sql`${users.id}`) };
}

/**
 * Expiry is checked against the database's clock, not a parameter: with the token hash as its only
 * parameter PostgreSQL keeps one generic plan for the statement instead of planning it again on every
 * request (planning was half its cost; decision 020, "Write cost").
 */
function sessionMemberStatement(db: Db, lent: (userId: SQL) => LentMemberColumns) {
  return db
    .select({ session: { id: sessions.id, lastSeenAt: sessions.lastSeenAt }, ...memberSelection(lent) })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, sql.placeholder("tokenHash")), gt(sessions.expiresAt, sql`now()`)))
    .limit(1)
    .prepare("session_member");
}

/**
 * The statement is built once per database and prepared: building this select with its lent subqueries
 * took more CPU than running it, on every request with a session cookie (measured with bench:search).
 */
const sessionStatements = new WeakMap<Db, ReturnType<typeof sessionMemberStatement>>();

/** The member of a valid session: session, account and lent columns in one query. */
export async function findSessionUser(db: Db, tokenHash: string, lent: (userId: SQL) => LentMemberColumns) {
  let statement = sessionStatements.get(db);
  if (!statement) {
    statement = sessionMemberStatement(db, lent);
    sessionStatements.set(db, statement);
  }
  const [row] = await statement.execute({ tokenHash });
  return row;
}

/** The member of a user id: account and lent columns in one query. */
export async function findMemberUser(db: Db, userId: number, lent: (userId: SQL) => LentMemberColumns) {
  const [row] = await db.select(memberSelection(lent)).from(users).where(eq(users.id, userId)).limit(1);
  return row;
}

export async function touchSession(db: Db, id: number, now: Date): Promise<void> {
  await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, id));
}

export async function deleteSession(db: DbOrTx, tokenHash: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
}

/** Ends every session of a member, or every one but `keepHash`. */
export async function deleteSessions(db: DbOrTx, userId: number, keepHash?: string): Promise<void> {
  await db.delete(sessions).where(and(eq(sessions.userId, userId), keepHash ? ne(sessions.tokenHash, keepHash) : undefined));
}

export async function countSessions(db: Db, userId: number): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(sessions).where(eq(sessions.userId, userId));
  return row?.n ?? 0;
}

// E-mailed tokens

export async function insertToken(
  db: DbOrTx,
  row: { userId: number; kind: TokenKind; tokenHash: string; expiresAt: Date; newEmail?: string },
  keepEarlier = false,
): Promise<void> {
  // A new link replaces the older unused ones of the same kind, unless the caller keeps them.
  if (!keepEarlier) await voidTokens(db, row.userId, [row.kind]);
  await db.insert(accountTokens).values(row);
}

/** Marks a valid (unused, unexpired) token used and returns it; undefined when there is none. */
export async function consumeToken(db: DbOrTx, kind: TokenKind, tokenHash: string, now: Date) {
  const [row] = await db
    .update(accountTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(accountTokens.kind, kind),
        eq(accountTokens.tokenHash, tokenHash),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, now),
      ),
    )
    .returning();
  return row;
}

export async function findValidToken(db: DbOrTx, kind: TokenKind, tokenHash: string, now: Date) {
  const [row] = await db
    .select()
    .from(accountTokens)
    .where(
      and(
        eq(accountTokens.kind, kind),
        eq(accountTokens.tokenHash, tokenHash),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, now),
      ),
    )
    .limit(1);
  return row;
}

// Login failures

export async function recentFailures(db: DbOrTx, email: string, address: string, since: Date) {
  return db
    .select({ failedAt: loginFailures.failedAt })
    .from(loginFailures)
    .where(and(eq(loginFailures.email, email), eq(loginFailures.address, address), gt(loginFailures.failedAt, since)))
    .orderBy(loginFailures.failedAt);
}

export async function recordFailure(db: DbOrTx, email: string, address: string, at: Date): Promise<void> {
  await db.insert(loginFailures).values({ email, address, failedAt: at });
}

export async function clearFailures(db: DbOrTx, email: string, address: string): Promise<void> {
  await db.delete(loginFailures).where(and(eq(loginFailures.email, email), eq(loginFailures.address, address)));
}

/** Wrong passwords for one account from every address since `since`: how many, and the latest. */
export async function accountFailures(db: DbOrTx, email: string, since: Date): Promise<{ count: number; last: Date | null }> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int`, last: sql<string | null>`max(${loginFailures.failedAt})` })
    .from(loginFailures)
    .where(and(eq(loginFailures.email, email), gt(loginFailures.failedAt, since)));
  return { count: row?.count ?? 0, last: row?.last ? new Date(row.last) : null };
}

export async function insertDevice(db: DbOrTx, userId: number, tokenHash: string): Promise<void> {
  await db.insert(loginDevices).values({ userId, tokenHash });
}

export async function deviceOwner(db: DbOrTx, tokenHash: string): Promise<number | null> {
  const [row] = await db
    .select({ userId: loginDevices.userId })
    .from(loginDevices)
    .where(eq(loginDevices.tokenHash, tokenHash))
    .limit(1);
  return row?.userId ?? null;
}

export async function pruneFailures(db: Db, before: Date): Promise<void> {
  await db.delete(loginFailures).where(lt(loginFailures.failedAt, before));
}

/** Members whose deletion is older than `before`: their 14 days to reactivate are over. */
export async function expiredDeletions(db: Db, before: Date): Promise<number[]> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.status, "pending_deletion"), lt(users.deletionRequestedAt, before)));
  return rows.map((r) => r.id);
}

export async function deleteUser(db: DbOrTx, id: number): Promise<void> {
  await db.delete(users).where(eq(users.id, id));
}

/**
 * Serialises login attempts for one account (inside the caller's transaction), so that parallel
 * guesses from one address or from many are all counted before the next is judged.
 */
export async function lockLoginAccount(tx: DbOrTx, email: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(7201003, hashtext(${email}))`);
}

/** Spends every unused link of a member (all kinds, or the given ones). */
export async function voidTokens(db: DbOrTx, userId: number, kinds?: TokenKind[]): Promise<void> {
  await db
    .update(accountTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(accountTokens.userId, userId),
        isNull(accountTokens.usedAt),
        kinds
          ? sql`${accountTokens.kind} in (${sql.join(
              kinds.map((k) => sql`${k}`),
              sql`, `,
            )})`
          : undefined,
      ),
    );
}

/** A token by its hash in any state (to recognise a second click on an activation link). */
export async function findToken(db: DbOrTx, kind: TokenKind, tokenHash: string) {
  const [row] = await db
    .select()
    .from(accountTokens)
    .where(and(eq(accountTokens.kind, kind), eq(accountTokens.tokenHash, tokenHash)))
    .limit(1);
  return row;
}

export async function insertSignupMessage(db: DbOrTx, row: { userId: number; toProfileId: number; text: string }): Promise<void> {
  await db.insert(signupMessages).values(row);
}

/** A new member's signup messages not delivered (or dropped) yet. */
export function undeliveredSignupMessages(
  db: DbOrTx,
  userId: number,
): Promise<{ id: number; userId: number; toProfileId: number; text: string }[]> {
  return db
    .select({
      id: signupMessages.id,
      userId: signupMessages.userId,
      toProfileId: signupMessages.toProfileId,
      text: signupMessages.text,
    })
    .from(signupMessages)
    .where(and(eq(signupMessages.userId, userId), isNull(signupMessages.deliveredAt)))
    .orderBy(signupMessages.id);
}

export async function markSignupMessageDelivered(db: DbOrTx, id: number): Promise<void> {
  await db.update(signupMessages).set({ deliveredAt: new Date() }).where(eq(signupMessages.id, id));
}

// The data export (issue #27): explicit columns, never a hash.

/** A member's login sessions: when each began, was last used and ends (not the token's hash). */
export function sessionsOfUser(db: DbOrTx, userId: number) {
  return db
    .select({ createdAt: sessions.createdAt, lastSeenAt: sessions.lastSeenAt, expiresAt: sessions.expiresAt })
    .from(sessions)
    .where(eq(sessions.userId, userId))
    .orderBy(sessions.id);
}

/** The browsers a member has logged in from: when each was first seen (not the cookie's hash). */
export function devicesOfUser(db: DbOrTx, userId: number) {
  return db
    .select({ createdAt: loginDevices.createdAt })
    .from(loginDevices)
    .where(eq(loginDevices.userId, userId))
    .orderBy(loginDevices.id);
}

/** Every signup message a member wrote, delivered or not. */
export function signupMessagesOfUser(db: DbOrTx, userId: number) {
  return db
    .select({
      toProfileId: signupMessages.toProfileId,
      text: signupMessages.text,
      createdAt: signupMessages.createdAt,
      deliveredAt: signupMessages.deliveredAt,
    })
    .from(signupMessages)
    .where(eq(signupMessages.userId, userId))
    .orderBy(signupMessages.id);
}

// Notifications (issue #28)

/** A member the notifications module may write to, with what decides whether and how. */
export interface NotificationRecipientRow {
  id: number;
  email: string;
  language: string;
  notificationsDisabled: unknown;
  /** Consent to promotional e-mails (null: none). */
  promotionsConsentAt: Date | null;
  /** The latest activity of any session (or the signup, without one). */
  lastSeenAt: Date;
}

/**
 * Confirmed, non-fictional members with an address, by id after `afterId` (paging a periodic job),
 * optionally only those not seen since `inactiveBefore`.
 */
export async function notificationRecipients(
  db: DbOrTx,
  options: { afterId: number; limit: number; inactiveBefore?: Date | undefined },
): Promise<NotificationRecipientRow[]> {
  const lastSeen = sql<Date>`coalesce((select max(s."last_seen_at") from ${sessions} s where s."user_id" = ${users.id}), ${users.signupDate})`;
  const rows = await db
    .select({
      id: users.id,
      email: sql<string>`${users.email}`,
      language: users.language,
      notificationsDisabled: users.notificationsDisabled,
      promotionsConsentAt: users.promotionsConsentAt,
      lastSeenAt: lastSeen,
    })
    .from(users)
    .where(
      and(
        gt(users.id, options.afterId),
        eq(users.status, "active"),
        eq(users.fictional, false),
        sql`${users.email} is not null`,
        options.inactiveBefore ? sql`${lastSeen} < ${options.inactiveBefore.toISOString()}::timestamptz` : undefined,
      ),
    )
    .orderBy(users.id)
    .limit(options.limit);
  return rows.map((row) => ({ ...row, lastSeenAt: new Date(row.lastSeenAt) }));
}

/** The stored notification settings of a user, locked until the transaction ends (a read-modify-write). */
export async function lockNotificationSettings(tx: DbOrTx, id: number): Promise<{ notificationsDisabled: unknown } | undefined> {
  const [row] = await tx
    .select({ notificationsDisabled: users.notificationsDisabled })
    .from(users)
    .where(eq(users.id, id))
    .for("update");
  return row;
}
