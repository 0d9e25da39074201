import path from "node:path";
import { LOCALE_CODES, type LocaleCode, type SsrServices } from "@app/contract";
import cookie from "@fastify/cookie";
import helmet from "@fastify/helmet";
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyRequest } from "fastify";
import { AccountService } from "./modules/accounts/service.ts";
import { photoRoutes } from "./modules/photos/routes.ts";
import { PhotoService } from "./modules/photos/service.ts";
import { ProfileService } from "./modules/profiles/service.ts";
import { siteRoutes } from "./modules/site/routes.ts";
import { normaliseHost, SiteService, selectedCountryFromQuery } from "./modules/site/service.ts";
import { type Bus, openBus } from "./platform/bus.ts";
import type { Config } from "./platform/config.ts";
import { type Database, openDatabase } from "./platform/db/index.ts";
import { AppError } from "./platform/errors.ts";
import { registerErrorHandling } from "./platform/http/errors.ts";
import { requestHost } from "./platform/http/request-locale.ts";
import { registerSsr } from "./platform/http/ssr.ts";
import { registerWebSocket, type WsHub } from "./platform/http/ws.ts";
import { preloadCatalogues } from "./platform/i18n.ts";
import { LocalStorage } from "./platform/storage.ts";

export interface Services {
  config: Config;
  database: Database;
  bus: Bus;
  site: SiteService;
  accounts: AccountService;
  photos: PhotoService;
  profiles: ProfileService;
}

export interface BuildOptions {
  /** Serve the web app: "production" (built), "development" (Vite), or false for API-only tests. */
  web: "production" | "development" | false;
  /** Use this database instead of opening one from the config (tests share one per file). */
  database?: Database;
  bus?: Bus;
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
  options: Pick<BuildOptions, "database" | "bus"> = {},
  log: Pick<FastifyBaseLogger, "error"> = console,
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
  const storage = new LocalStorage(path.join(config.dataDir, "files"));
  const site = new SiteService(database.db);
  const accounts = new AccountService(database.db);
  const photos = new PhotoService(database.db, storage);
  const profiles = new ProfileService(database.db, accounts, photos);
  return { config, database, bus, site, accounts, photos, profiles };
}

export async function buildApp(config: Config, options: BuildOptions): Promise<App> {
  const server = Fastify({
    logger:
      config.LOG_LEVEL === "silent"
        ? false
        : {
            level: config.LOG_LEVEL,
            redact: ["req.headers.cookie", "req.headers.authorization", 'res.headers["set-cookie"]'],
          },
    bodyLimit: config.BODY_LIMIT_BYTES,
    trustProxy: config.TRUST_PROXY,
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
  await server.register(helmet, {
    // API answers get a deny-all policy; HTML pages get their own with a per-response nonce (ssr.ts).
    contentSecurityPolicy: { directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: config.PUBLIC_URL?.startsWith("https:") ? undefined : false,
  });
  registerErrorHandling(server);

  server.get("/healthz", async (_request, reply) => {
    try {
      await services.database.ping();
      return { status: "ok", database: services.database.kind, bus: services.bus.kind };
    } catch {
      return reply.status(503).send({ status: "degraded", database: services.database.kind, bus: services.bus.kind });
    }
  });

  await server.register(siteRoutes, { site: services.site, geoipCountry });
  await server.register(photoRoutes, { photos: services.photos, profiles: services.profiles });

  const allowedOrigins = [
    ...(config.PUBLIC_URL ? [new URL(config.PUBLIC_URL).origin] : []),
    ...config.ALLOWED_ORIGINS.split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  ];
  const ws = await registerWebSocket(server, { bus: services.bus, allowedOrigins });

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
        return {
          mode: config.NODE_ENV,
          nonce,
          geoipCountry: geoipCountry(request),
          currentUser: async () => null,
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
    if (!options.database) await services.database.close();
  };

  return { server, services, ws, close };
}
