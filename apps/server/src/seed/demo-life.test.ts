import {
  chatResponseSchema,
  chatsResponseSchema,
  type LikeType,
  likesResponseSchema,
  transactionsResponseSchema,
  userResponseSchema,
  visitorsResponseSchema,
} from "@app/contract";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { TestClient } from "../test/client.ts";
import { sqlCount } from "../test/factories.ts";
import { type TestApp, type TestDatabase, useTestApp } from "../test/harness.ts";
import { DEMO_PURCHASE } from "./demo-life.ts";
import { DEMO_ACCOUNTS, seed } from "./seed.ts";

/**
 * Issue #29: the demo accounts of the README start with a life (likes, matches, conversations with
 * fictional profiles, and for the premium one the paid order that made it premium), seen as the member
 * sees it through the API, and a second seed adds nothing.
 */
let app: TestApp;
let database: TestDatabase;

useTestApp({ listen: false, seed: { profiles: 30 }, timeout: 300_000 }, (env) => {
  ({ app, database } = env);
});

async function loggedIn(account: keyof typeof DEMO_ACCOUNTS): Promise<TestClient> {
  const client = new TestClient(app.server);
  const { email, password } = DEMO_ACCOUNTS[account];
  const login = await client.post("/api/user.php", { email, password });
  expect(login.statusCode, login.body).toBe(200);
  return client;
}

const likes = async (client: TestClient, type: LikeType) =>
  likesResponseSchema.parse((await client.get(`/api/likes.php?type=${type}&page=1`)).json());
const chats = async (client: TestClient) => chatsResponseSchema.parse((await client.get("/api/chats.php")).json());
const visitors = async (client: TestClient) =>
  visitorsResponseSchema.parse((await client.get("/api/visitors.php?page=1")).json());
const me = async (client: TestClient) => userResponseSchema.parse((await client.get("/api/user.php")).json());

describe("the demo accounts' life", () => {
  it("gives the premium account its paid 500-credit order: /transactions, the balance and premium agree", async () => {
    const alex = await loggedIn("premium");
    const { payments } = transactionsResponseSchema.parse((await alex.get("/api/transactions.php")).json());
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({ status: "paid", credits: DEMO_PURCHASE.credits, method: "ideal" });
    expect(payments[0]?.paid_at).not.toBeNull();
    const user = await app.services.accounts.findByEmail(DEMO_ACCOUNTS.premium.email);
    expect(await app.services.credits.account(database.db, user?.id ?? 0)).toEqual({ credits: 500, paid: true });
    // The ledger holds the purchase only: no grant beside it.
    expect(
      await sqlCount(
        database.db,
        sql`select count(*)::int as n from credit_ledger where user_id = ${user?.id} and reason <> 'purchase'`,
      ),
    ).toBe(0);
    expect((await me(alex)).user).toMatchObject({ paid_user: true, credits: 500 });
  });

  it("gives the premium account matches, likes received and given, and two conversations with fictional profiles", async () => {
    const alex = await loggedIn("premium");
    expect((await likes(alex, "matches")).counts).toMatchObject({ matches: 2 });
    expect((await likes(alex, "received")).profiles.length).toBeGreaterThanOrEqual(2);
    expect((await likes(alex, "sent")).profiles.length).toBeGreaterThanOrEqual(1);
    const list = await chats(alex);
    expect(list.chats).toHaveLength(2);
    expect(list.chats.every((chat) => chat.profile.fictional && chat.num_unread_messages > 0)).toBe(true);
    expect(list.chats.map((chat) => chat.last_message?.kind).sort()).toEqual(["gift", "text"]);
    // Those fictional profiles opened his profile first: premium, he sees who.
    const seen = await visitors(alex);
    expect(seen).toMatchObject({ locked: false, total: 6 });
    expect(seen.visitors.every((visitor) => visitor.fictional)).toBe(true);
  });

  it("gives the free account a match with one conversation (one of its two), likes received and one given", async () => {
    const sam = await loggedIn("free");
    expect((await likes(sam, "matches")).counts.matches).toBe(1);
    expect((await likes(sam, "received")).profiles.length).toBeGreaterThanOrEqual(2);
    expect((await likes(sam, "sent")).profiles.length).toBeGreaterThanOrEqual(1);
    const list = await chats(sam);
    expect(list.chats).toHaveLength(1);
    const [chat] = list.chats;
    expect(chat?.profile.fictional).toBe(true);
    const opened = chatResponseSchema.parse((await sam.get(`/api/chat.php?id=${chat?.conversation.id}`)).json());
    expect(opened.messages).toHaveLength(3);
    // Sam answered once, paid like any message: 10 of her 20 credits.
    expect((await me(sam)).user).toMatchObject({ paid_user: false, credits: 10 });
    // Visitors: free, she sees how many and blurred cards, not who.
    expect(await visitors(sam)).toMatchObject({ locked: true, total: 4, visitors: [], placeholders: 4 });
  });

  it("adds nothing when seeding again", async () => {
    const tables = ["users", "profiles", "photos", "likes", "conversations", "messages", "payments", "credit_ledger"];
    const counts = async () =>
      Promise.all(tables.map((table) => sqlCount(database.db, sql.raw(`select count(*)::int as n from ${table}`))));
    const before = await counts();
    const result = await seed(app.services, { profiles: 30 });
    expect(result.created).toBe(false);
    expect(await counts()).toEqual(before);
  });
});
