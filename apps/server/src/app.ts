import { LOCALE_CODES, type LocaleCode, type SsrServices } from "@app/contract";
import cookie from "@fastify/cookie";
import helmet from "@fastify/helmet";
import multipart from "@fastify/multipart";
import rateLimit from "@fastify/rate-limit";
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyRequest } from "fastify";
import { currentUser } from "./modules/accounts/http.ts";
import { accountRoutes } from "./modules/accounts/routes.ts";
import { AccountService } from "./modules/accounts/service.ts";
import { blockRoutes } from "./modules/blocks/routes.ts";
import { BlockService } from "./modules/blocks/service.ts";
import { CreditService } from "./modules/credits/service.ts";
import { locationRoutes } from "./modules/location/routes.ts";
import { LocationService } from "./modules/location/service.ts";
import { photoRoutes } from "./modules/photos/routes.ts";
import { PhotoService } from "./modules/photos/service.ts";
import { askerOf, profileRoutes } from "./modules/profiles/routes.ts";
import { ProfileService } from "./modules/profiles/service.ts";
import { DEMO_CITIES } from "./modules/site/data/demo-people.ts";
import { siteRoutes } from "./modules/site/routes.ts";
import { normaliseHost, SiteService, selectedCountryFromQuery } from "./modules/site/service.ts";
import { type Bus, openBus, RedisBus } from "./platform/bus.ts";
import type { Config } from "./platform/config.ts";
import { type Database, openDatabase } from "./platform/db/index.ts";
import { AppError } from "./platform/errors.ts";
import { registerCompression } from "./platform/http/compression.ts";
import { registerCsrfProtection } from "./platform/http/csrf.ts";
import { registerErrorHandling } from "./platform/http/errors.ts";
import { mailboxRoutes } from "./platform/http/mailbox.ts";
import { requestHost } from "./platform/http/request-locale.ts";
import { registerSsr } from "./platform/http/ssr.ts";
import { registerWebSocket, SESSIONS_ENDED_CHANNEL, type WsHub } from "./platform/http/ws.ts";
import { preloadCatalogues } from "./platform/i18n.ts";
import { type Mailer, OutboxMailer, openMailer } from "./platform/mailer.ts";
import { openStorage } from "./platform/storage.ts";

export interface Services {
  config: Config;
  database: Database;
  bus: Bus;
  mailer: Mailer;
  credits: CreditService;
  site: SiteService;
  accounts: AccountService;
  photos: PhotoService;
  profiles: ProfileService;
  location: LocationService;
  blocks: BlockService;
}

export interface BuildOptions {
  /** Serve the web app: "production" (built), "development" (Vite), or false for API-only tests. */
  web: "production" | "development" | false;
  /** Use this database instead of opening one from the config (tests share one per file). */
  database?: Database;
  bus?: Bus;
  mailer?: Mailer;
}

export interface App {
  server: FastifyInstance;
  services: Services;
  ws: WsHub;
  /** Graceful stop: stop accepting, close sockets, drain requests, close bus and database. */
  close(): Promise<void>;
}

export async function openServices(
  config: Config,
  options: Pick<BuildOptions, "database" | "bus" | "mailer"> = {},
  log: Pick<FastifyBaseLogger, "error"> = { error: (obj: unknown, msg?: string) => console.error(msg, obj) },
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
    }));
  const storage = openStorage(config);
  const mailer = options.mailer ?? openMailer({ url: config.SMTP_URL, from: config.MAIL_FROM, db: database.db });
  const site = new SiteService(database.db);
  const credits = new CreditService();
  const photos = new PhotoService(database.db, storage);
  const regions = site.regions();
  const location = new LocationService(
    Object.keys(regions),
    (country) => (regions[country] ?? []).map((r) => r.code),
    // The demo cities carry their local names (München, Den Haag, Warszawa, ...), which members type.
    Object.entries(DEMO_CITIES).flatMap(([country, cities]) => cities.map((city) => ({ ...city, country }))),
  );
  // Profiles need the accounts' visibility rule and accounts need profiles: the rule is passed as a
  // function that reads the accounts service once both exist.
  let accounts: AccountService | undefined;
  const blocks = new BlockService(database.db);
  const profiles = new ProfileService(
    database.db,
    (column) => (accounts as AccountService).visibleUser(column),
    photos,
    location,
    blocks,
  );
  accounts = new AccountService({
    db: database.db,
    mailer,
    credits,
    profiles,
    fictionalIcon: async () => (await site.siteFor("")).overrides.fictional_icon,
    log,
    sessionsEnded: (userId) => {
      bus.publish(SESSIONS_ENDED_CHANNEL, { user_id: userId }).catch((err: unknown) => log.error({ err }, "bus publish failed"));
    },
  });
  return { config, database, bus, mailer, credits, site, accounts, photos, profiles, location, blocks };
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
  const services = await openServices(config, options, server.log);

  const geoipCountry = (request: FastifyRequest): string | null => {
    if (!config.GEOIP_HEADER) return null;
    const value = request.headers[config.GEOIP_HEADER];
    const country = (Array.isArray(value) ? value[0] : value)?.toUpperCase();
    return country && /^[A-Z]{2}$/.test(country) ? country : null;
  };

  await server.register(cookie);
  await registerCompression(server);
  await server.register(helmet, {
    // API answers get a deny-all policy; HTML pages get their own with a per-response nonce (ssr.ts).
    contentSecurityPolicy: { directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: config.PUBLIC_URL?.startsWith("https:") ? undefined : false,
  });
  registerErrorHandling(server);
  await server.register(multipart, { limits: { fileSize: 10 * 1024 * 1024, files: 1, fields: 10 } });
  await server.register(rateLimit, {
    global: false,
    // Counters shared by every node when Redis is there; per process otherwise.
    ...(services.bus instanceof RedisBus ? { redis: services.bus.client, nameSpace: `${config.REDIS_PREFIX}rate:` } : {}),
  });

  server.get("/healthz", async (_request, reply) => {
    try {
      await services.database.ping();
      return { status: "ok", database: services.database.kind, bus: services.bus.kind };
    } catch {
      return reply.status(503).send({ status: "degraded", database: services.database.kind, bus: services.bus.kind });
    }
  });

  const allowedOrigins = [
    ...(config.PUBLIC_URL ? [new URL(config.PUBLIC_URL).origin] : []),
    ...config.ALLOWED_ORIGINS.split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  ];
  registerCsrfProtection(server, allowedOrigins);
  const hasTrafficSource = (request: FastifyRequest) => {
    const raw = request.cookies.tracking;
    if (!raw) return false;
    try {
      const record = JSON.parse(raw) as { network?: string; ref?: string };
      return !!record.network || !!record.ref;
    } catch {
      return false;
    }
  };

  await server.register(siteRoutes, { site: services.site, geoipCountry });
  await server.register(accountRoutes, {
    accounts: services.accounts,
    site: services.site,
    publicUrl: config.PUBLIC_URL,
    geoipCountry,
    hasTrafficSource,
  });
  await server.register(profileRoutes, {
    accounts: services.accounts,
    profiles: services.profiles,
    photos: services.photos,
    site: services.site,
    hasTrafficSource,
  });
  await server.register(locationRoutes, { location: services.location });
  await server.register(blockRoutes, { accounts: services.accounts, profiles: services.profiles, blocks: services.blocks });
  await server.register(photoRoutes, {
    photos: services.photos,
    profiles: services.profiles,
    viewer: async (request) => {
      const user = await currentUser(request, services.accounts);
      if (!user) return null;
      return { profileId: await services.profiles.profileIdOfUser(user.id).catch(() => null), paid: user.paidUser };
    },
  });
  if (services.mailer instanceof OutboxMailer && config.NODE_ENV !== "production") {
    await server.register(mailboxRoutes, { outbox: services.mailer });
  }
  const ws = await registerWebSocket(server, {
    bus: services.bus,
    allowedOrigins,
    authenticate: async (request) => (await currentUser(request, services.accounts))?.id ?? null,
  });

  // Unknown API paths answer JSON, never the web app's HTML.
  server.all("/api/*", async () => {
    throw new AppError("not_found");
  });

  if (options.web) {
    await registerSsr(server, {
      mode: options.web,
      bodyLimit: config.BODY_LIMIT_BYTES,
      services: (request, nonce): SsrServices => {
        const host = requestHost(request);
        // The site's rules (countries, visible fields) for member lookups; their texts are not used.
        const siteSettings = () =>
          services.site.settings({ host: normaliseHost(host), locale: "en", geoipCountry: null, selectedCountry: null });
        return {
          mode: config.NODE_ENV,
          nonce,
          geoipCountry: geoipCountry(request),
          currentUser: async () => {
            const user = await currentUser(request, services.accounts);
            return user ? services.accounts.present(user) : null;
          },
          domainLanguage: async () => {
            const { site } = await services.site.siteFor(host);
            return (LOCALE_CODES as readonly string[]).includes(site.domainLanguage ?? "")
              ? (site.domainLanguage as LocaleCode)
              : null;
          },
          settings: async ({ locale, query }) => {
            const { overrides } = await services.site.siteFor(host);
            return services.site.settings({
              host: normaliseHost(host),
              locale,
              geoipCountry: geoipCountry(request),
              selectedCountry: selectedCountryFromQuery(query, overrides.countries),
            });
          },
          companyInfo: () => services.site.companyInfo(host),
          teaser: (input) => services.profiles.teaser(input),
          member: async (id) => {
            const settings = await siteSettings();
            try {
              return await services.profiles.memberView(
                id,
                await askerOf(request, services.accounts, services.profiles),
                settings,
              );
            } catch (error) {
              // The page says who blocked the asker (spec §6) instead of failing.
              if (error instanceof AppError && error.code === "blocked_by") return { blocked_by: String(error.params.name) };
              throw error;
            }
          },
          matchFinder: async () => {
            const user = await currentUser(request, services.accounts);
            if (!user) return null;
            const settings = await siteSettings();
            return services.profiles.matchFinder(user.id, settings);
          },
          searchMembers: async (query) => {
            const settings = await siteSettings();
            return services.profiles.search(query, await askerOf(request, services.accounts, services.profiles), settings);
          },
        };
      },
    });
  } else {
    server.setNotFoundHandler(async () => {
      throw new AppError("not_found");
    });
  }

  const close = async () => {
    await ws.closeAll();
    await server.close();
    await services.bus.close();
    await services.mailer.close();
    if (!options.database) await services.database.close();
  };

  return { server, services, ws, close };
}
