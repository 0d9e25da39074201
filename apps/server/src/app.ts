import { isLocaleCode, SESSION_COOKIE } from "@app/contract";
import cookie from "@fastify/cookie";
import multipart from "@fastify/multipart";
import rateLimit from "@fastify/rate-limit";
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import { AccountService, BanService } from "./modules/accounts/index.ts";
import { type AccountJobs, defineAccountJobs } from "./modules/accounts/jobs.ts";
import { accountRoutes } from "./modules/accounts/routes.ts";
import { banStaffRoutes } from "./modules/accounts/staff-routes.ts";
import { appRoutes } from "./modules/app/routes.ts";
import { BadgeService } from "./modules/badges/index.ts";
import { badgeRoutes } from "./modules/badges/routes.ts";
import { BlockService } from "./modules/blocks/index.ts";
import { blockRoutes } from "./modules/blocks/routes.ts";
import { GifCatalogue, openGifSource } from "./modules/chat/gifs/gif-source.ts";
import { ChatService } from "./modules/chat/index.ts";
import { defineChatJobs } from "./modules/chat/jobs.ts";
import { chatRoutes, sendRules } from "./modules/chat/routes.ts";
import { registerChatFrames } from "./modules/chat/socket.ts";
import { ChatSupport } from "./modules/chat/support.ts";
import { ComplaintService, ModerationQueue, ReportService } from "./modules/complaints/index.ts";
import { defineAnswerJobs, defineComplaintJobs } from "./modules/complaints/jobs.ts";
import { complaintRoutes } from "./modules/complaints/routes.ts";
import { queueStaffRoutes } from "./modules/complaints/staff-routes.ts";
import { consoleRoutes } from "./modules/console/routes.ts";
import { CreditService } from "./modules/credits/index.ts";
import { dataExportRoutes } from "./modules/data-export/routes.ts";
import { DataExportService } from "./modules/data-export/service.ts";
import { dataRequestStaffRoutes } from "./modules/data-export/staff-routes.ts";
import { DiscountService } from "./modules/discounts/index.ts";
import { discountRoutes } from "./modules/discounts/routes.ts";
import { discountStaffRoutes } from "./modules/discounts/staff-routes.ts";
import { LikeService } from "./modules/likes/index.ts";
import { likeRoutes } from "./modules/likes/routes.ts";
import { LikeSupport } from "./modules/likes/support.ts";
import { locationRoutes } from "./modules/location/routes.ts";
import { LocationService } from "./modules/location/service.ts";
import { defineModerationJobs } from "./modules/moderation/jobs.ts";
import { ModerationService } from "./modules/moderation/service.ts";
import { moderationStaffRoutes } from "./modules/moderation/staff-routes.ts";
import { DEMO_ROTATION_EVERY_MS, onlineCondition, Presence } from "./modules/notifications/presence.ts";
import { PresenceLabels } from "./modules/notifications/presence-labels.ts";
import { mailEventRoutes, notificationRoutes, registerPollPresence } from "./modules/notifications/routes.ts";
import { NotificationService } from "./modules/notifications/service.ts";
import { UnsubscribeTokens } from "./modules/notifications/tokens.ts";
import { OperatorService } from "./modules/operators/service.ts";
import { inboxStaffRoutes } from "./modules/operators/staff-routes.ts";
import { DirectDebitService } from "./modules/payments/direct-debit.ts";
import { definePaymentJobs, type PaymentJobs } from "./modules/payments/jobs.ts";
import { MollieProvider } from "./modules/payments/providers/mollie.ts";
import { SandboxProvider } from "./modules/payments/providers/sandbox.ts";
import { sandboxRoutes } from "./modules/payments/providers/sandbox-routes.ts";
import { paymentHook, paymentRoutes } from "./modules/payments/routes.ts";
import { PaymentService } from "./modules/payments/service.ts";
import { PaymentSupport } from "./modules/payments/support.ts";
import { photoRoutes } from "./modules/photos/routes.ts";
import { PhotoService } from "./modules/photos/service.ts";
import { PhotoSupport } from "./modules/photos/support.ts";
import { ProfileService, ProfileSupport } from "./modules/profiles/index.ts";
import { profileRoutes } from "./modules/profiles/routes.ts";
import { loadVapidKeys, PushService } from "./modules/push/index.ts";
import { pushRoutes } from "./modules/push/routes.ts";
import { searchRoutes } from "./modules/search/routes.ts";
import { SearchService } from "./modules/search/service.ts";
import { DEMO_CITIES } from "./modules/site/data/demo-people.ts";
import { siteRoutes } from "./modules/site/routes.ts";
import { SiteService } from "./modules/site/service.ts";
import { settingsStaffRoutes } from "./modules/site/staff-routes.ts";
import { registerStaffContext } from "./modules/staff/http.ts";
import { staffRoutes } from "./modules/staff/routes.ts";
import { StaffService } from "./modules/staff/service.ts";
import { SupportService, supportPhotoUrl } from "./modules/support/service.ts";
import { supportStaffRoutes } from "./modules/support/staff-routes.ts";
import { VisibilityPolicy } from "./modules/visibility/index.ts";
import { VisitService } from "./modules/visits/index.ts";
import { visitRoutes } from "./modules/visits/routes.ts";
import { type Bus, openBus, RedisBus } from "./platform/bus.ts";
import { type Config, defaultOrigin, isTestSite, paymentsProviderOf } from "./platform/config.ts";
import { type Database, openDatabase } from "./platform/db/index.ts";
import { AppError } from "./platform/errors.ts";
import { clientNetwork } from "./platform/http/client-address.ts";
import { registerClosingConnections } from "./platform/http/closing.ts";
import { registerCompression } from "./platform/http/compression.ts";
import { registerCsrfProtection } from "./platform/http/csrf.ts";
import { memberOf, registerEndpointRules, registerMemberContext } from "./platform/http/endpoint.ts";
import { registerErrorHandling } from "./platform/http/errors.ts";
import { registerInputRule } from "./platform/http/input-rule.ts";
import { mailboxRoutes } from "./platform/http/mailbox.ts";
import { type ProviderHook, registerProviderHooks } from "./platform/http/provider-hooks.ts";
import { fallbackStore } from "./platform/http/rate-limit-store.ts";
import { registerReadiness } from "./platform/http/readiness.ts";
import { registerSecurityHeaders } from "./platform/http/security-headers.ts";
import { registerSsr } from "./platform/http/ssr.ts";
import { geoipCountryFrom } from "./platform/http/visitor.ts";
import { registerWebSocket, SESSIONS_ENDED_CHANNEL, type WsHub } from "./platform/http/ws.ts";
import { preloadCatalogues } from "./platform/i18n.ts";
import { JobRunner } from "./platform/jobs.ts";
import { type Mailer, OutboxMailer, openMailer } from "./platform/mailer.ts";
import { MemberEvents } from "./platform/member-events.ts";
import { defineMemberEventJobs } from "./platform/member-events-jobs.ts";
import { OutboxSms, openSms, type SmsSender } from "./platform/sms.ts";
import { openStorage } from "./platform/storage.ts";
import { ssrServices } from "./ssr-services.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface Services {
  config: Config;
  database: Database;
  bus: Bus;
  mailer: Mailer;
  /** Durable jobs; main.ts starts the runner (tests call runDue() themselves). */
  jobs: JobRunner;
  accountJobs: AccountJobs;
  credits: CreditService;
  site: SiteService;
  accounts: AccountService;
  /** Bans (issue #27), owned by the accounts module. */
  bans: BanService;
  photos: PhotoService;
  profiles: ProfileService;
  search: SearchService;
  location: LocationService;
  blocks: BlockService;
  visibility: VisibilityPolicy;
  likes: LikeService;
  chat: ChatService;
  /** GIF search and look-up: the embedded catalogue, or GIPHY / Tenor with a key. */
  gifs: GifCatalogue;
  badges: BadgeService;
  /** Typed events to one member's sockets on every node (platform/member-events.ts). */
  events: MemberEvents;
  /** Text messages (direct-debit codes): an HTTP gateway, or the outbox the development mailbox shows. */
  sms: SmsSender;
  payments: PaymentService;
  paymentJobs: PaymentJobs;
  directDebit: DirectDebitService;
  /** The embedded payment provider, unless MOLLIE_API_KEY selects Mollie. */
  sandbox: SandboxProvider | null;
  discounts: DiscountService;
  /** Complaints for staff to handle (issue #13). */
  complaints: ComplaintService;
  /** The data export (GDPR art. 15/20, issue #27): each module's part in one ZIP. */
  exports: DataExportService;
  /** Members' reports of profiles and messages (issue #27), kept by the complaints module. */
  reports: ReportService;
  /** The staff queue of reports and complaints (issue #27). */
  queue: ModerationQueue;
  /** Staff accounts, their sessions and the audit log of the console (issue #27). */
  staff: StaffService;
  /** The review of photos and about texts (issue #27). */
  moderation: ModerationService;
  /** The operators' inbox of fictional profiles (issue #27). */
  operators: OperatorService;
  /** Support's member search, dossier, credit corrections and refunds (issue #27). */
  support: SupportService;
  /** Web push (issue #28): members' subscriptions, the VAPID key, sending. */
  push: PushService;
  /** Notifications by push and e-mail, and whether a member is looking (issue #28). */
  notifications: NotificationService;
  presence: Presence;
  /** Issue #29: "online", "active today", "active this week" of profiles, as an asker may see them. */
  presenceLabels: PresenceLabels;
  /** Issue #29: profile visitors ("who viewed me"). */
  visits: VisitService;
}

export interface BuildOptions {
  /** Serve the web app: "production" (built), "development" (Vite), or false for API-only tests. */
  web: "production" | "development" | false;
  /** Use this database instead of opening one from the config (tests share one per file). */
  database?: Database;
  bus?: Bus;
  mailer?: Mailer;
  /** Provider callbacks to serve under /hooks/ (payments, mail events; tests add their own). */
  providerHooks?: readonly ProviderHook[];
}

export interface App {
  server: FastifyInstance;
  services: Services;
  ws: WsHub;
  /** Graceful stop: stop accepting, close sockets (1012), drain requests and jobs, close bus and database. */
  close(): Promise<void>;
}

export async function openServices(
  config: Config,
  options: Pick<BuildOptions, "database" | "bus" | "mailer"> & { listeningPort?: () => number | undefined } = {},
  log: Pick<FastifyBaseLogger, "error" | "info"> = {
    error: (obj: unknown, msg?: string) => console.error(msg, obj),
    info: (obj: unknown, msg?: string) => console.info(msg, obj),
  },
): Promise<Services> {
  preloadCatalogues();
  const database =
    options.database ??
    (await openDatabase({
      url: config.DATABASE_URL,
      dataDir: config.dataDir,
      poolSize: config.DATABASE_POOL_SIZE,
      onError: (err) => log.error({ err }, "database connection error"),
    }));
  const bus =
    options.bus ??
    (await openBus({
      url: config.REDIS_URL,
      prefix: config.REDIS_PREFIX,
      onError: (err) => log.error({ err }, "bus error"),
      log,
    }));
  const storage = openStorage(config);
  const mailer = options.mailer ?? openMailer({ url: config.SMTP_URL, from: config.MAIL_FROM, db: database.db });
  const vapidKeys = await loadVapidKeys(config, log);
  // The port actually listened on (PORT=0 in tests) once the server listens.
  // Asked at request time, once `payments` below exists.
  const site = new SiteService(
    database.db,
    () => defaultOrigin(config, options.listeningPort?.() ?? config.PORT),
    () => payments.available,
    vapidKeys.publicKey,
  );
  const push = new PushService(database.db, {
    keys: vapidKeys,
    // RFC 8292: whom a push service may contact about our pushes; the site's support address by default.
    subject: async () => config.VAPID_SUBJECT ?? `mailto:${(await site.siteFor("")).site.supportEmail}`,
    httpOrigins: config.PUSH_HTTP_ORIGINS.split(",")
      .map((origin) => origin.trim())
      .filter(Boolean),
    log,
  });
  const credits = new CreditService();
  const photos = new PhotoService(database.db, storage);
  const regions = site.regions();
  const location = new LocationService(
    Object.keys(regions),
    (country) => (regions[country] ?? []).map((r) => r.code),
    // The demo cities carry their local names (München, Den Haag, Warszawa, ...), which members type.
    Object.entries(DEMO_CITIES).flatMap(([country, cities]) => cities.map((city) => ({ ...city, country }))),
  );
  const blocks = new BlockService(database.db);
  const visibility = new VisibilityPolicy(database.db, blocks);
  const profiles = new ProfileService(database.db, visibility, photos, location, blocks);
  const presenceLabels = new PresenceLabels(database.db, (profileId) => profiles.userIdOf(profileId));
  const search = new SearchService(database.db, profiles, photos, visibility, {
    online: onlineCondition,
    labelOf: (viewer, userId) => presenceLabels.labelOf(viewer, userId),
  });
  const sessionsEnded = (userId: number, reason?: "banned") => {
    bus
      .publish(SESSIONS_ENDED_CHANNEL, { user_id: userId, ...(reason ? { reason } : {}) })
      .catch((err: unknown) => log.error({ err }, "bus publish failed"));
  };
  const accounts = new AccountService({
    db: database.db,
    mailer,
    credits,
    profiles,
    visibility,
    fictionalIcon: async () => (await site.siteFor("")).overrides.fictional_icon,
    pushState: (userId) => push.stateOf(userId),
    log,
    sessionsEnded,
  });
  const bans = new BanService(database.db, sessionsEnded);
  const jobs = new JobRunner(database.db, { log });
  const accountJobs = defineAccountJobs(jobs, accounts, bans, log);
  const events = new MemberEvents(database.db, bus);
  const likes = new LikeService(database.db, profiles, photos, visibility, events);
  // Spec §6: a block deletes the likes both ways in its transaction; opening a profile clears its new like.
  blocks.onBlock(likes.onBlock);
  profiles.onView((viewer, profileId) => likes.viewed(viewer, profileId));
  const visits = new VisitService(database.db, profiles, visibility, presenceLabels);
  // Issue #29: a block deletes the pair's visits both ways in its transaction.
  blocks.onBlock(visits.onBlock);
  const gifs = new GifCatalogue(openGifSource(config), log);
  const chat = new ChatService(database.db, { credits, profiles, photos, visibility, likes, events, gifs, log });
  // Spec §6: a block deletes the pair's conversation in its transaction.
  blocks.onBlock(chat.onBlock);
  // An erased account's chat photos go with it (the messages go with the profile).
  accounts.onErase(chat.onErase);
  // Spec §1, §4: the message written on a profile's signup page goes out once the address is confirmed.
  accounts.onSignupMessage(async (message, host) => {
    const settings = await site.settingsFor(host, "en");
    await chat.deliverSignupMessage(message, sendRules(settings));
  });
  const badges = new BadgeService(likes, chat, visits);
  const chatJobs = defineChatJobs(jobs, chat, log);
  const sms = openSms({ url: config.SMS_URL, db: database.db });
  const discounts = new DiscountService(database.db);
  // Decision 030: Mollie, the embedded sandbox (a test site: loopback, or PAYMENTS_PROVIDER=sandbox),
  // or none, when purchases are unavailable and the payment calls answer payments_unavailable.
  const providerName = paymentsProviderOf(config);
  const sandbox =
    providerName === "sandbox"
      ? new SandboxProvider(database.db, jobs, { webhookDelayMs: config.SANDBOX_WEBHOOK_DELAY_MS })
      : null;
  const payments = new PaymentService({
    db: database.db,
    credits,
    events,
    jobs,
    provider:
      providerName === "mollie"
        ? new MollieProvider({
            apiKey: config.MOLLIE_API_KEY ?? "",
            ...(config.MOLLIE_API_ENDPOINT ? { apiEndpoint: config.MOLLIE_API_ENDPOINT } : {}),
          })
        : sandbox,
    customerOf: async (userId) => ({
      name: (await profiles.nameOf(userId)) ?? `#${userId}`,
      email: (await accounts.findUser(userId))?.email ?? "",
    }),
    log,
    discounts,
  });
  const directDebit = new DirectDebitService(database.db, payments, sms);
  const paymentJobs = definePaymentJobs(jobs, payments, {
    mailer,
    recipientOf: async (userId) => {
      const [user, name] = await Promise.all([accounts.findUser(userId), profiles.nameOf(userId)]);
      return user?.email ? { email: user.email, name: name ?? user.email } : null;
    },
    site: async () => {
      const settings = await site.settingsFor("", "en");
      return {
        name: settings.name,
        origin: await site.originFor(""),
        company: await site.companyInfo(""),
      };
    },
    log,
  });
  const siteName = async () => (await site.settingsFor("", "en")).name;
  const complaints = new ComplaintService(database.db, jobs, profiles);
  const reports = new ReportService(database.db, { profiles, photos, visibility, received: chat.received });
  const queue = new ModerationQueue(database.db, jobs);
  defineAnswerJobs(jobs, queue, complaints, { db: database.db, mailer, siteName });
  defineComplaintJobs(jobs, complaints, { mailer, siteName });
  const support = new SupportService({
    db: database.db,
    accounts: accounts.support,
    profiles: new ProfileSupport(database.db),
    photos: new PhotoSupport(database.db, storage),
    likes: new LikeSupport(database.db),
    chat: new ChatSupport(database.db),
    credits,
    payments: new PaymentSupport(database.db, credits, payments),
    photoUrl: supportPhotoUrl,
  });
  const moderation = new ModerationService({ photos, profiles, jobs });
  defineModerationJobs(jobs, moderation, {
    mailer,
    recipientOf: async (userId) => {
      const user = await accounts.findUser(userId);
      return user?.email ? { email: user.email, language: user.language } : null;
    },
    site: async () => ({ name: await siteName(), origin: await site.originFor("") }),
  });
  const exports = new DataExportService({
    // The README lists them in this order; each module reads only its own tables.
    contributors: [
      accounts,
      profiles,
      photos,
      likes,
      blocks,
      visits,
      chat,
      { exportFor: (subject) => credits.exportFor(database.db, subject) },
      payments,
      discounts,
      complaints,
      push,
    ],
    memberOf: async (userId) => {
      const user = await accounts.findUser(userId);
      if (!user || user.fictional) return null;
      return {
        userId,
        profileId: await profiles.profileIdOfMember(userId),
        locale: isLocaleCode(user.language) ? user.language : "en",
        email: user.email,
      };
    },
    siteName,
  });
  const eventJobs = defineMemberEventJobs(jobs, events);
  const staff = new StaffService(database.db);
  const operators = new OperatorService(database.db, { chat, likes, profiles, photos, staff, bus });
  const staffPrune = jobs.define("staff.prune", async () => void (await staff.prune()), { maxAttempts: 3 });
  const pushPrune = jobs.define("push.prune", () => push.pruneDeliveries(), { maxAttempts: 3 });
  // Periodic work, once per period across all nodes (decision 012); the daily ones staggered by the hour.
  jobs.schedule(accountJobs.purgeDeletions, { everyMs: HOUR });
  jobs.schedule(accountJobs.clearEndedBans, { everyMs: HOUR, offsetMs: 30 * 60_000 });
  jobs.schedule(accountJobs.pruneLogins, { everyMs: DAY, offsetMs: 6 * HOUR });
  jobs.schedule(jobs.prune, { everyMs: DAY, offsetMs: 3 * HOUR });
  jobs.schedule(chatJobs.purgeExpired, { everyMs: DAY, offsetMs: 5 * HOUR });
  jobs.schedule(paymentJobs.reconcile, { everyMs: 5 * 60_000 });
  jobs.schedule(eventJobs.prune, { everyMs: DAY, offsetMs: 4 * HOUR });
  jobs.schedule(staffPrune, { everyMs: HOUR, offsetMs: 30 * 60_000 });
  jobs.schedule(pushPrune, { everyMs: DAY, offsetMs: 7 * HOUR });
  const visitsPurge = jobs.define("visits.purge-expired", async () => void (await visits.purgeExpired()), { maxAttempts: 3 });
  jobs.schedule(visitsPurge, { everyMs: DAY, offsetMs: 8 * HOUR });
  const presence = new Presence(database.db);
  // Issue #29: on a seeded (demo) site the fictional profiles come and go (Presence.rotateDemo).
  if (config.SEED) {
    const rotation = jobs.define("presence.demo-rotation", async () => presence.rotateDemo(await profiles.fictionalUserIds()), {
      maxAttempts: 1,
    });
    jobs.schedule(rotation, { everyMs: DEMO_ROTATION_EVERY_MS });
  }
  const notifications = new NotificationService({
    db: database.db,
    jobs,
    mailer,
    // A device that took a push is not sent it again when the job runs again (PushService's key).
    push: {
      hasDevices: async (userId) => (await push.stateOf(userId)) === true,
      send: async (userId, payload, key) => (await push.send(userId, payload, { key })).accepted,
    },
    presence,
    tokens: new UnsubscribeTokens(database.db, config.APP_SECRET),
    accounts,
    profiles,
    chat,
    likes,
    search,
    site: {
      name: siteName,
      origin: () => site.originFor(""),
      settings: (locale) => site.settingsFor("", locale),
    },
    log,
  });
  notifications.schedule();
  accounts.onErase(notifications.onErase);
  return {
    config,
    database,
    bus,
    mailer,
    jobs,
    accountJobs,
    credits,
    site,
    accounts,
    bans,
    photos,
    profiles,
    search,
    location,
    blocks,
    visibility,
    likes,
    chat,
    gifs,
    badges,
    events,
    sms,
    payments,
    paymentJobs,
    directDebit,
    sandbox,
    discounts,
    complaints,
    exports,
    reports,
    queue,
    staff,
    moderation,
    operators,
    support,
    push,
    notifications,
    presence,
    presenceLabels,
    visits,
  };
}

/**
 * The outbox mailbox (/dev/mailbox, with the SMS outbox) is there whenever no SMTP server is configured
 * and the site is a test site (decision 030): reachable from this machine only, so that `npm start` on a
 * laptop lets a new user confirm an account, or declared one with PAYMENTS_PROVIDER=sandbox. A site
 * reachable from outside never shows it, whatever NODE_ENV says (main.ts then says in the log that mail
 * cannot leave).
 */
export function showsDevMailbox(config: Pick<Config, "SMTP_URL" | "HOST" | "PUBLIC_URL" | "PAYMENTS_PROVIDER">): boolean {
  return !config.SMTP_URL && isTestSite(config);
}

export async function buildApp(config: Config, options: BuildOptions): Promise<App> {
  const server = Fastify({
    logger:
      config.LOG_LEVEL === "silent"
        ? false
        : {
            level: config.LOG_LEVEL,
            redact: ["req.headers.cookie", "req.headers.authorization", 'res.headers["set-cookie"]'],
            // Paths only: query strings carry e-mailed tokens (activation, reset, ...).
            serializers: {
              req: (request: { method: string; url: string; ip?: string }) => ({
                method: request.method,
                url: request.url.split("?")[0],
                remoteAddress: request.ip,
              }),
            },
          },
    bodyLimit: config.BODY_LIMIT_BYTES,
    trustProxy:
      typeof config.TRUST_PROXY === "number"
        ? (() => {
            const hops = config.TRUST_PROXY as number;
            return (_address: string, hop: number) => hop < hops;
          })()
        : config.TRUST_PROXY,
    return503OnClosing: true,
    forceCloseConnections: "idle",
  });
  const listeningPort = () => {
    const address = server.server.address();
    return address && typeof address === "object" ? address.port : undefined;
  };
  const services = await openServices(config, { ...options, listeningPort }, server.log);

  const geoipCountry = geoipCountryFrom(config.GEOIP_HEADER);

  await server.register(cookie);
  await registerCompression(server);
  registerEndpointRules(server);
  registerMemberContext(
    server,
    (request) => services.accounts.member(request.cookies[SESSION_COOKIE]),
    (request) => services.accounts.sessionKey(request.cookies[SESSION_COOKIE]),
    // Issue #27: a cookie whose session a ban ended is refused as banned, not as logged out.
    async (request) => ((await services.bans.notice(request.cookies[SESSION_COOKIE])) ? new AppError("account_banned") : null),
  );
  registerSecurityHeaders(server, {
    // API answers get a deny-all policy; HTML pages get their own with a per-response nonce (ssr.ts).
    // (useDefaults: false, or helmet adds its page defaults such as script-src 'self' to this list.)
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: config.PUBLIC_URL?.startsWith("https:") ? undefined : false,
  });
  registerErrorHandling(server);
  // One input rule for params, query strings and bodies of every route (decision 032).
  registerInputRule(server);
  await server.register(rateLimit, {
    global: false,
    // Per client address, IPv6 per /64 as the login lock counts it (one subscriber has a whole /64).
    keyGenerator: (request) => clientNetwork(request.ip),
    // Counters shared by every node when Redis is there and answers; per process otherwise (also
    // while Redis is away: issue #25, decision 031).
    ...(services.bus instanceof RedisBus ? { store: fallbackStore(services.bus, `${config.REDIS_PREFIX}rate:`) } : {}),
  });

  server.get("/healthz", async (_request, reply) => {
    try {
      await services.database.ping();
      return { status: "ok", database: services.database.kind, bus: services.bus.kind };
    } catch {
      return reply.status(503).send({ status: "degraded", database: services.database.kind, bus: services.bus.kind });
    }
  });
  registerReadiness(server, { database: services.database, bus: services.bus });

  const allowedOrigins = [
    ...(config.PUBLIC_URL ? [new URL(config.PUBLIC_URL).origin] : []),
    ...config.ALLOWED_ORIGINS.split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  ];
  registerCsrfProtection(server, allowedOrigins);
  registerClosingConnections(server);

  await server.register(siteRoutes, { site: services.site, geoipCountry });
  // The installable app: manifest, service worker, offline page (decision 026).
  await server.register(appRoutes, { site: services.site });
  await server.register(accountRoutes, {
    accounts: services.accounts,
    bans: services.bans,
    events: services.events,
    site: services.site,
    publicUrl: config.PUBLIC_URL,
    allowedOrigins,
    geoipCountry,
  });
  // Only the profile routes take an upload (POST /api/photos.php): multipart's per-request hooks stay there.
  await server.register(async (uploads) => {
    await uploads.register(multipart, { limits: { fileSize: 10 * 1024 * 1024, files: 1, fields: 10 } });
    await uploads.register(profileRoutes, {
      profiles: services.profiles,
      photos: services.photos,
      site: services.site,
      // Issue #29: the presence label, and the visit (the member may open it: memberView allowed it).
      afterView: async (member, view) => {
        if (member) await services.visits.visited(member, view.profile.id, view.blocked);
        const labels = await services.presenceLabels.of(member, [view.profile.id]);
        return { ...view, presence: labels.get(view.profile.id) ?? null };
      },
    });
  });
  await server.register(searchRoutes, {
    profiles: services.profiles,
    search: services.search,
    site: services.site,
  });
  await server.register(visitRoutes, { visits: services.visits, site: services.site });
  // POST /api/user.php?push=1 (the router tells it from the login by its query).
  await server.register(pushRoutes, { push: services.push, accounts: services.accounts, events: services.events });
  await server.register(locationRoutes, { location: services.location });
  await server.register(likeRoutes, { likes: services.likes, site: services.site });
  // POST /api/message-photo.php takes an upload too (multipart in its own scope, as the profile routes).
  await server.register(async (uploads) => {
    await uploads.register(multipart, { limits: { fileSize: 10 * 1024 * 1024, files: 1, fields: 10 } });
    await uploads.register(chatRoutes, {
      chat: services.chat,
      site: services.site,
      profiles: services.profiles,
      gifs: services.gifs,
    });
  });
  await server.register(badgeRoutes, { badges: services.badges });
  await server.register(blockRoutes, { profiles: services.profiles, blocks: services.blocks, visibility: services.visibility });
  await server.register(photoRoutes, {
    photos: services.photos,
    visibility: services.visibility,
    viewer: async (request) => {
      const member = await memberOf(request);
      return member ? { profileId: member.profileId, paid: member.paid } : null;
    },
  });
  await server.register(paymentRoutes, {
    payments: services.payments,
    directDebit: services.directDebit,
    discounts: services.discounts,
    site: services.site,
    profiles: services.profiles,
    geoipCountry,
  });
  await server.register(discountRoutes, { discounts: services.discounts });
  await server.register(dataExportRoutes, { exports: services.exports });
  await server.register(notificationRoutes, { notifications: services.notifications, presence: services.presence });
  await server.register(mailEventRoutes, { notifications: services.notifications, secret: config.MAIL_EVENTS_SECRET });
  await server.register(complaintRoutes, { complaints: services.complaints, reports: services.reports });
  // Staff console routes (issue #27)
  registerStaffContext(server, services.staff);
  await server.register(staffRoutes, { staff: services.staff, publicUrl: config.PUBLIC_URL });
  await server.register(settingsStaffRoutes, { site: services.site, staff: services.staff });
  await server.register(discountStaffRoutes, {
    discounts: services.discounts,
    payments: services.payments,
    accounts: services.accounts,
    staff: services.staff,
  });
  await server.register(dataRequestStaffRoutes, {
    exports: services.exports,
    accounts: services.accounts,
    profiles: services.profiles,
    site: services.site,
    staff: services.staff,
  });
  await server.register(queueStaffRoutes, {
    queue: services.queue,
    bans: services.bans,
    staff: services.staff,
    chatPhoto: (key) => services.photos.chatPhoto(key),
  });
  await server.register(banStaffRoutes, { bans: services.bans, accounts: services.accounts, staff: services.staff });
  await server.register(moderationStaffRoutes, {
    moderation: services.moderation,
    staff: services.staff,
    photos: services.photos,
  });
  await server.register(inboxStaffRoutes, { operators: services.operators, site: services.site });
  await server.register(consoleRoutes, { operators: services.operators, moderation: services.moderation, queue: services.queue });
  await server.register(supportStaffRoutes, { staff: services.staff, support: services.support });
  // Unknown staff API paths answer JSON 404 like every refused staff call.
  server.all("/staff/api/*", async () => {
    throw new AppError("not_found");
  });
  if (services.sandbox) await server.register(sandboxRoutes, { sandbox: services.sandbox });
  await registerProviderHooks(server, [
    ...(services.payments.available ? [paymentHook(services.payments)] : []),
    ...(options.providerHooks ?? []),
  ]);
  if (services.mailer instanceof OutboxMailer && showsDevMailbox(config)) {
    await server.register(mailboxRoutes, {
      outbox: services.mailer,
      sms: services.sms instanceof OutboxSms ? services.sms : null,
    });
  }
  const ws = await registerWebSocket(server, {
    bus: services.bus,
    events: services.events,
    allowedOrigins,
    authenticate: async (request) => (await memberOf(request))?.userId ?? null,
  });
  registerChatFrames(ws, { chat: services.chat, site: services.site });
  ws.onPresence(services.presence.listener(server.log));
  registerPollPresence(server, services.presence);

  // Unknown API paths answer JSON, never the web app's HTML.
  server.all("/api/*", async () => {
    throw new AppError("not_found");
  });

  if (options.web) {
    await registerSsr(server, {
      mode: options.web,
      bodyLimit: config.BODY_LIMIT_BYTES,
      services: ssrServices(services, geoipCountry),
    });
  } else {
    server.setNotFoundHandler(async () => {
      throw new AppError("not_found");
    });
  }

  const close = async () => {
    // Fastify answers new requests 503, tells the sockets to reconnect elsewhere (1012, the hub's
    // preClose), stops listening and waits for the requests in flight; meanwhile the jobs finish their
    // current step. Then the connections underneath (issue #25: graceful shutdown).
    await Promise.all([server.close(), services.jobs.stop()]);
    await services.bus.close();
    await services.mailer.close();
    if (!options.database) await services.database.close();
  };

  return { server, services, ws, close };
}
