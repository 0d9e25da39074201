import { createECDH } from "node:crypto";
import path from "node:path";
import { z } from "zod";

const urlOf = (protocols: string[]) =>
  z.string().refine((value) => URL.canParse(value) && protocols.includes(new URL(value).protocol), {
    message: `must be a URL starting with ${protocols.map((p) => `${p}//`).join(" or ")}`,
  });

/**
 * Every setting of the process, read from the environment once at start-up. Defaults give the embedded
 * mode: PGlite in DATA_DIR, the in-process bus, the e-mail outbox, photos on local disk.
 */
const settingsSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("127.0.0.1"),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: urlOf(["postgres:", "postgresql:"]).optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  REDIS_URL: urlOf(["redis:", "rediss:"]).optional(),
  /** Prefix of every Redis channel and key, so that several deployments or test runs share a server. */
  REDIS_PREFIX: z.string().default("dating:"),
  SMTP_URL: urlOf(["smtp:", "smtps:"]).optional(),
  MAIL_FROM: z.string().default("Dating <no-reply@localhost>"),
  /**
   * The site's origin (scheme, host, port): every link in an e-mail and every URL given to a payment
   * provider is built from it or from a site's own domain, never from the request's Host (issue #25).
   * Required when HOST is not a loopback address; on loopback it defaults to http://localhost:PORT.
   */
  PUBLIC_URL: urlOf(["http:", "https:"]).optional(),
  /** An HTTP SMS gateway (POST JSON {to, text}; user info as basic auth) for direct-debit codes; else the outbox. */
  SMS_URL: urlOf(["http:", "https:"]).optional(),
  /**
   * Who takes payments (decision 030): `mollie` (needs MOLLIE_API_KEY) or `sandbox`, the embedded test
   * provider whose checkout has a "Paid" button, which makes this a test site (flagged in the log and on
   * every sandbox page; the outboxes of e-mail and SMS are readable too). Unset: Mollie when
   * MOLLIE_API_KEY is set, the sandbox on a loopback-only site, otherwise no purchases at all.
   */
  PAYMENTS_PROVIDER: z.enum(["mollie", "sandbox"]).optional(),
  /** Mollie's API key (test_… or live_…): payments go to Mollie instead of the embedded sandbox. */
  MOLLIE_API_KEY: z
    .string()
    .regex(/^(test|live)_\w{20,}$/)
    .optional(),
  /**
   * The sandbox provider's webhook comes this long after a payment changes, plus up to 2 s at random
   * (and sometimes a second one later). The browser tests lengthen it, so that the result page's
   * "Processing your payment" is there to be seen before the outcome arrives.
   */
  SANDBOX_WEBHOOK_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(500),
  /** Mollie's API base, for a local stand-in in tests. */
  MOLLIE_API_ENDPOINT: z.string().url().optional(),
  /** Extra origins allowed to open the WebSocket (comma separated); the public URL's origin always is. */
  ALLOWED_ORIGINS: z.string().default(""),
  /** A header set by a trusted proxy with the visitor's ISO country (e.g. cf-ipcountry); none by default. */
  GEOIP_HEADER: z.string().toLowerCase().optional(),
  /**
   * Which proxies may set X-Forwarded-For: "false" (none: the socket's address counts), a hop count
   * ("1" behind one load balancer), or a comma list of proxy addresses/CIDRs. "true" trusts every hop,
   * which lets clients pick their own address: only for a proxy that overwrites the header.
   */
  TRUST_PROXY: z
    .string()
    .default("false")
    .transform((v): boolean | number | string => {
      if (v === "false" || v === "") return false;
      if (v === "true") return true;
      if (/^\d+$/.test(v)) return Number(v);
      return v;
    }),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024),
  /** Demo data on an empty database: `true` seeds the default site, demo members and demo accounts. */
  SEED: z
    .enum(["true", "false"])
    .default("true")
    .transform((v) => v === "true"),
  SEED_PROFILES: z.coerce.number().int().min(0).max(200_000).default(320),
  /**
   * The README's two demo accounts, whose passwords are public (issue #25): seeded on a test site only
   * (isTestSite), unless set. `true` on a public site hands anyone a premium account with 500 credits.
   */
  SEED_DEMO_ACCOUNTS: z
    .enum(["true", "false"])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === "true")),
  /** Seconds to wait for open requests and sockets on shutdown before closing anyway. */
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).max(120).default(10),
  /** Photo files go to this bucket of an S3-compatible store (path-style URLs) instead of DATA_DIR/files. */
  S3_BUCKET: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,255}$/, "must be a bucket name")
    .optional(),
  S3_ENDPOINT: urlOf(["http:", "https:"]).optional(),
  S3_REGION: z.string().default("us-east-1"),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /**
   * GIF search in the chat (decision 020): GIPHY with GIPHY_API_KEY, else Tenor with TENOR_API_KEY,
   * else the embedded catalogue. The API URLs are for a stand-in (tests); media go through our proxy.
   */
  GIPHY_API_KEY: z.string().optional(),
  GIPHY_API_URL: urlOf(["http:", "https:"]).default("https://api.giphy.com"),
  TENOR_API_KEY: z.string().optional(),
  TENOR_API_URL: urlOf(["http:", "https:"]).default("https://tenor.googleapis.com"),
  /**
   * Web push (issue #28): the VAPID key pair (RFC 8292) push subscriptions are made with, base64url (the
   * public key a 65-byte uncompressed P-256 point, the private key 32 bytes). Both or neither: without
   * them a pair is generated at the first start and kept in DATA_DIR/vapid-keys.json. A site with
   * several nodes sets them here (or shares DATA_DIR): every node must sign with the same key.
   */
  VAPID_PUBLIC_KEY: z.string().optional(),
  VAPID_PRIVATE_KEY: z.string().optional(),
  /** Who push services may contact about our pushes: a mailto: or https: URL (default: the site's support address). */
  VAPID_SUBJECT: urlOf(["mailto:", "https:"]).optional(),
  /**
   * Push services reachable over plain http (comma-separated origins, e.g. a local stand-in in tests):
   * every other subscription endpoint must be https and not name a private address.
   */
  PUSH_HTTP_ORIGINS: z.string().default(""),
  /**
   * The shared secret of POST /hooks/mail-events (bounces and complaints from the mail provider, issue
   * #28), sent as `Authorization: Bearer <secret>` or as HTTP basic auth's password. Unset: the hook is
   * not there (404).
   */
  MAIL_EVENTS_SECRET: z.string().min(16).optional(),
  /**
   * The key links in e-mails are signed with (one-click unsubscribe, issue #28). Unset: a random key is
   * made once and kept in the database, shared by every node.
   */
  APP_SECRET: z.string().min(32).optional(),
});

const s3Settings = ["S3_ENDPOINT", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const;

/**
 * Settings that need one another: S3 storage (S3_BUCKET) needs the endpoint and both keys, and S3
 * settings without a bucket are a mistake rather than a wish for local disk.
 */
export const configSchema = settingsSchema.superRefine((settings, context) => {
  // Issue #25: without PUBLIC_URL the links would have to come from the request's Host, which anyone
  // can set; only a site nobody else can reach may fall back to http://localhost:PORT.
  if (!settings.PUBLIC_URL && !listensOnLoopbackOnly(settings.HOST)) {
    context.addIssue({
      code: "custom",
      path: ["PUBLIC_URL"],
      message: `required when HOST (${settings.HOST}) is not a loopback address: links in e-mails and payment URLs are built from it (e.g. https://www.example.com)`,
    });
  }
  if (settings.PAYMENTS_PROVIDER === "mollie" && !settings.MOLLIE_API_KEY) {
    context.addIssue({ code: "custom", path: ["MOLLIE_API_KEY"], message: "required when PAYMENTS_PROVIDER is mollie" });
  }
  if (!!settings.VAPID_PUBLIC_KEY !== !!settings.VAPID_PRIVATE_KEY) {
    const missing = settings.VAPID_PUBLIC_KEY ? "VAPID_PRIVATE_KEY" : "VAPID_PUBLIC_KEY";
    context.addIssue({
      code: "custom",
      path: [missing],
      message: "VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together (or neither)",
    });
  } else if (settings.VAPID_PUBLIC_KEY && settings.VAPID_PRIVATE_KEY) {
    const problem = vapidKeyProblem(settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY);
    if (problem) context.addIssue({ code: "custom", path: [problem.key], message: problem.message });
  }
  if (settings.S3_BUCKET) {
    for (const name of s3Settings) {
      if (!settings[name]) context.addIssue({ code: "custom", path: [name], message: "required when S3_BUCKET is set" });
    }
  } else if (s3Settings.some((name) => settings[name])) {
    context.addIssue({ code: "custom", path: ["S3_BUCKET"], message: "required when other S3_* settings are set" });
  }
});

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * What is wrong with a VAPID key pair, or null: each must be base64url of the right length (a 65-byte
 * uncompressed P-256 point, a 32-byte scalar), and the public key must be the private key's, or every
 * subscription made with the public key would refuse our signatures.
 */
export function vapidKeyProblem(
  publicKey: string,
  privateKey: string,
): { key: "VAPID_PUBLIC_KEY" | "VAPID_PRIVATE_KEY"; message: string } | null {
  const pub = BASE64URL.test(publicKey) ? Buffer.from(publicKey, "base64url") : Buffer.alloc(0);
  if (pub.length !== 65 || pub[0] !== 4) {
    return { key: "VAPID_PUBLIC_KEY", message: "must be base64url of a 65-byte uncompressed P-256 public key (87 characters)" };
  }
  const priv = BASE64URL.test(privateKey) ? Buffer.from(privateKey, "base64url") : Buffer.alloc(0);
  if (priv.length !== 32) {
    return { key: "VAPID_PRIVATE_KEY", message: "must be base64url of a 32-byte P-256 private key (43 characters)" };
  }
  try {
    const ecdh = createECDH("prime256v1");
    ecdh.setPrivateKey(priv);
    if (!ecdh.getPublicKey().equals(pub)) {
      return { key: "VAPID_PUBLIC_KEY", message: "is not the public key of VAPID_PRIVATE_KEY" };
    }
  } catch {
    return { key: "VAPID_PRIVATE_KEY", message: "is not a valid P-256 private key" };
  }
  return null;
}

/** Whether the process listens on this machine only (a loopback address), so nobody else can reach it. */
export function listensOnLoopbackOnly(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Whether the site is reachable from this machine only: it listens on loopback and its public URL, if
 * any, names this machine too. A loopback HOST behind a proxy with a public PUBLIC_URL is a public site.
 */
export function isLocalOnlySite(config: Pick<Config, "HOST" | "PUBLIC_URL">): boolean {
  if (!listensOnLoopbackOnly(config.HOST)) return false;
  if (!config.PUBLIC_URL) return true;
  return listensOnLoopbackOnly(new URL(config.PUBLIC_URL).hostname.replace(/^\[|\]$/g, ""));
}

/**
 * Whether the test tools are on (decision 030): the sandbox payment provider, the /dev/mailbox outbox
 * and the SMS outbox. Only on a site nobody else can reach, or when PAYMENTS_PROVIDER=sandbox says in so
 * many words that this is a test site.
 */
export function isTestSite(config: Pick<Config, "HOST" | "PUBLIC_URL" | "PAYMENTS_PROVIDER">): boolean {
  return config.PAYMENTS_PROVIDER === "sandbox" || isLocalOnlySite(config);
}

/** Whether the seed makes the demo accounts with public passwords: SEED_DEMO_ACCOUNTS, else on a test site only. */
export function seedsDemoAccounts(
  config: Pick<Config, "HOST" | "PUBLIC_URL" | "PAYMENTS_PROVIDER" | "SEED_DEMO_ACCOUNTS">,
): boolean {
  return config.SEED_DEMO_ACCOUNTS ?? isTestSite(config);
}

/** Who takes payments (PAYMENTS_PROVIDER, see the schema), or null: purchases are unavailable. */
export function paymentsProviderOf(
  config: Pick<Config, "HOST" | "PUBLIC_URL" | "PAYMENTS_PROVIDER" | "MOLLIE_API_KEY">,
): "mollie" | "sandbox" | null {
  if (config.PAYMENTS_PROVIDER) return config.PAYMENTS_PROVIDER;
  if (config.MOLLIE_API_KEY) return "mollie";
  return isLocalOnlySite(config) ? "sandbox" : null;
}

/**
 * The default site's origin (issue #25): PUBLIC_URL's, else http://localhost:PORT on a loopback site
 * (what `npm start` prints). `port` is the port actually listened on, when PORT is 0.
 */
export function defaultOrigin(config: Pick<Config, "PUBLIC_URL" | "PORT">, port: number = config.PORT): string {
  return config.PUBLIC_URL ? new URL(config.PUBLIC_URL).origin : `http://localhost:${port}`;
}

export type Config = z.infer<typeof configSchema> & { dataDir: string };

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = configSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  return { ...parsed.data, dataDir: path.resolve(parsed.data.DATA_DIR) };
}

/** The entry points' config (main, migrate): a bad setting prints its message and exits with 78 (EX_CONFIG). */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78);
    }
    throw error;
  }
}
