import { createHash } from "node:crypto";
import type { MemberContext } from "@app/contract";
import type { Services } from "../app.ts";
import { sendRules } from "../modules/chat/index.ts";

/**
 * Issue #29: the demo accounts start with a life, so that a newcomer sees every screen with data: likes
 * received, matches, a one-sided like of their own, conversations with fictional profiles and, for the
 * premium account, the paid order that made it premium; the fictional profiles among them visited the
 * profile (/visitors). Everything goes through the modules' services
 * as a member's or an operator's action would (likes, chat, payments with the sandbox provider), so the
 * ledger, /transactions, /likes and /chats agree; nothing is written into their tables here.
 *
 * It runs once per account, right after the seed made the account (seed.ts); the client ids of the
 * messages and of the payment are derived from the account's e-mail, so even a repeated run stores
 * nothing twice. The fictional profiles are the first of the sought gender, Dutch ones first (the demo
 * accounts live in Amsterdam); with fewer demo profiles (SEED_PROFILES) the life is shorter.
 */

/** The paid order of the premium account: the 500-credit bundle (drizzle/0015_payments.sql), by iDEAL. */
export const DEMO_PURCHASE = { bundleId: 3, credits: 500, method: "ideal" } as const;

type Persona = { userId: number; profileId: number; name: string };

/** What the free account (Sam) finds: one conversation of its two, a match, likes received and given. */
const FREE_LIFE = {
  /** Liked Sam, Sam liked back (a match), wrote; Sam answered once (10 of her 20 credits), so did he. */
  match: [
    "Hi Sam! You live in Amsterdam too, I see. Have you ever cycled along the Amstel to Ouderkerk?",
    "Ha, yes, many times! The pancakes at the end are the best part. Do you ride every weekend?",
    "Most weekends, when it doesn't rain too hard. Maybe we could ride there together some Sunday?",
  ],
  /** Liked Sam, not (yet) liked back. */
  admirers: 2,
  /** Sam liked them; no answer yet. */
  liked: 1,
} as const;

/** What the premium account (Alex) finds; he sends nothing, so the 500 credits he bought stay whole. */
const PREMIUM_LIFE = {
  /** Liked Alex, he liked back (a match); she wrote and sent a gift. */
  match: ["Hey Alex, we matched! 😊 Your profile made me smile. How is your week going?"],
  matchGift: { gift: "rose", text: "A little something to start with 🌹" },
  /** A second match, no messages yet. */
  quietMatches: 1,
  /** Liked Alex, not (yet) liked back. */
  admirers: 2,
  /** Wrote to Alex without a like: an unread conversation waiting for his answer. */
  writer: "Hello Alex! I love old films, and something tells me you do too. What was the last one you saw in the cinema?",
  /** Alex liked them; no answer yet. */
  liked: 1,
} as const;

/** A UUID made from a name (version 5 layout), the same on every run: a repeated send is a replay. */
function demoClientId(name: string): string {
  const hash = createHash("sha1").update(`demo-life:${name}`).digest();
  hash[6] = ((hash[6] ?? 0) & 0x0f) | 0x50;
  hash[8] = ((hash[8] ?? 0) & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The first `count` fictional profiles of `gender` (the profiles module's order: Dutch and heterosexual first). */
function fictionalPeople(services: Services, gender: "male" | "female", count: number): Promise<Persona[]> {
  return services.profiles.fictionalPeople(gender, count);
}

/** The premium account's order: bought on the sandbox and paid there, recorded by the payments module's `sync`. */
async function buyDemoBundle(services: Services, member: MemberContext): Promise<boolean> {
  const { payments, sandbox, site } = services;
  if (!sandbox || !payments.available) return false;
  const settings = await site.settingsFor("localhost", "en");
  const created = await payments.create(
    member,
    { bundleId: DEMO_PURCHASE.bundleId, method: DEMO_PURCHASE.method, clientId: demoClientId(`${member.email}:order`) },
    {
      country: "NL",
      currency: await payments.currencyFor("EUR"),
      origin: await site.originFor("localhost"),
      locale: "en",
      siteName: settings.name,
    },
  );
  const row = await payments.get(member, created.payment_id);
  if (!row.providerId) return false;
  await sandbox.complete(row.providerId, "paid", { notify: false });
  const change = await payments.sync(sandbox.name, row.providerId);
  return change?.payment.status === "paid";
}

/**
 * Gives the premium demo account its paid order, or (a site without the sandbox provider, where no
 * order can be paid here) simply premium. Answers whether it was bought.
 */
export async function givePremium(services: Services, userId: number): Promise<boolean> {
  const member = await services.accounts.memberOfUser(userId);
  if (member && (await buyDemoBundle(services, member))) return true;
  await services.database.db.transaction(async (tx) => {
    await services.credits.change(tx, { userId, delta: DEMO_PURCHASE.credits, reason: "demo_grant" });
    await services.credits.grantPremium(tx, userId);
  });
  return false;
}

/** The demo account `userId`'s likes, matches and conversations with fictional profiles. */
export async function giveDemoLife(services: Services, userId: number, kind: "free" | "premium"): Promise<void> {
  const member = await services.accounts.memberOfUser(userId);
  if (!member) return;
  const { db } = services.database;
  const settings = await services.site.settingsFor("localhost", "en");
  const rules = sendRules(settings);

  const personaLikes = async (persona: Persona) => {
    const popups = await services.likes.popupsForLike(persona.profileId, member.profileId);
    const liked = await db.transaction((tx) => services.likes.likeAsPersona(tx, persona, member.profileId, popups));
    await liked.deliver();
  };
  const personaWrites = async (persona: Persona, name: string, content: { text: string } | { gift: string; text: string }) => {
    const sent = await db.transaction((tx) =>
      services.chat.sendAsPersona(
        tx,
        persona,
        { profileId: member.profileId },
        demoClientId(`${member.email}:${name}`),
        content,
        rules,
      ),
    );
    await sent.deliver();
    return sent.conversation_id;
  };
  const memberWrites = (conversationId: number, name: string, text: string) =>
    services.chat.send(
      member,
      { conversation_id: conversationId, client_id: demoClientId(`${member.email}:${name}`), text },
      rules,
    );

  // The people who liked or wrote opened the profile first, as anyone would: /visitors has its entries
  // (the free account sees their count and blurred cards, the premium one the profiles).
  const visitedBy = async (people: readonly Persona[]) => {
    for (const persona of people)
      await services.visits.visited({ profileId: persona.profileId, invisible: false }, member.profileId, false);
  };

  if (kind === "free") {
    const people = await fictionalPeople(services, "male", 1 + FREE_LIFE.admirers + FREE_LIFE.liked);
    await visitedBy(people);
    const [match, ...rest] = people;
    if (match) {
      await personaLikes(match);
      await services.likes.like(member, match.profileId);
      const [first, answer, again] = FREE_LIFE.match;
      const conversation = await personaWrites(match, "match:1", { text: first });
      await memberWrites(conversation, "match:2", answer);
      await personaWrites(match, "match:3", { text: again });
    }
    for (const admirer of rest.slice(0, FREE_LIFE.admirers)) await personaLikes(admirer);
    for (const liked of rest.slice(FREE_LIFE.admirers)) await services.likes.like(member, liked.profileId);
    await todaysAutoLike(services, member, settings.countries);
    return;
  }

  const count = 1 + PREMIUM_LIFE.quietMatches + PREMIUM_LIFE.admirers + 1 + PREMIUM_LIFE.liked;
  const people = await fictionalPeople(services, "female", count);
  await visitedBy(people);
  const [match, ...rest] = people;
  if (match) {
    await personaLikes(match);
    await services.likes.like(member, match.profileId);
    await personaWrites(match, "match:1", { text: PREMIUM_LIFE.match[0] });
    await personaWrites(match, "match:gift", PREMIUM_LIFE.matchGift);
  }
  const quiet = rest.slice(0, PREMIUM_LIFE.quietMatches);
  const admirers = rest.slice(PREMIUM_LIFE.quietMatches, PREMIUM_LIFE.quietMatches + PREMIUM_LIFE.admirers);
  const [writer, ...liked] = rest.slice(PREMIUM_LIFE.quietMatches + PREMIUM_LIFE.admirers);
  for (const persona of quiet) {
    await personaLikes(persona);
    await services.likes.like(member, persona.profileId);
  }
  for (const persona of admirers) await personaLikes(persona);
  if (writer) await personaWrites(writer, "writer:1", { text: PREMIUM_LIFE.writer });
  for (const persona of liked) await services.likes.like(member, persona.profileId);
  await todaysAutoLike(services, member, settings.countries);
}

/**
 * Spec §7's automatic like comes once a day to a member with a photo or a like of their own, which the
 * demo accounts now have: the seed takes today's (one more like from a fictional profile, the likes
 * module's choice), so that the first login meets the seeded life rather than a "New like" pop-up over
 * it (and the browser tests that log in as the demo accounts find no pop-up in their way). From the
 * next day on it comes as to anyone.
 */
async function todaysAutoLike(services: Services, member: MemberContext, countries: readonly string[]): Promise<void> {
  const fresh = await services.accounts.memberOfUser(member.userId);
  if (fresh) await services.likes.autoLike(fresh, countries);
}
