import { createECDH } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { type Config, ConfigError, vapidKeyProblem } from "../../platform/config.ts";

/** The VAPID key pair (RFC 8292), base64url: the public key a 65-byte uncompressed P-256 point, the private 32 bytes. */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

export const VAPID_KEYS_FILE = "vapid-keys.json";

/** A new P-256 pair, as web-push's generateVAPIDKeys makes it (with node:crypto). */
export function generateVapidKeys(): VapidKeys {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  // A private scalar with leading zero bytes comes out shorter: pad it to 32.
  const privateKey = Buffer.alloc(32);
  const raw = ecdh.getPrivateKey();
  raw.copy(privateKey, 32 - raw.length);
  return { publicKey: ecdh.getPublicKey("base64url", "uncompressed"), privateKey: privateKey.toString("base64url") };
}

/**
 * The site's VAPID keys: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY from the configuration (checked there),
 * else the pair in DATA_DIR/vapid-keys.json, made (mode 0600) at the first start and reused ever after:
 * a new key would orphan every subscription. Two processes starting at once on one directory agree (the
 * file is created exclusively; the loser reads the winner's). A file that is not a valid pair stops the
 * start with a message naming it, rather than being replaced.
 */
export async function loadVapidKeys(
  config: Pick<Config, "VAPID_PUBLIC_KEY" | "VAPID_PRIVATE_KEY" | "dataDir">,
  log?: { info(obj: unknown, msg?: string): void },
): Promise<VapidKeys> {
  if (config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY) {
    return { publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY };
  }
  const file = path.join(config.dataDir, VAPID_KEYS_FILE);
  const stored = await readKeys(file);
  if (stored) return stored;
  await mkdir(config.dataDir, { recursive: true });
  const keys = generateVapidKeys();
  try {
    await writeFile(file, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600, flag: "wx" });
    log?.info(
      { file },
      "web push: generated a VAPID key pair (set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY on a site with several nodes)",
    );
    return keys;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    // Another process made it first: its pair, once written (a moment at most).
    for (let attempt = 0; attempt < 40; attempt++) {
      const theirs = await readKeys(file);
      if (theirs) return theirs;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new ConfigError(`${file}: an empty VAPID key file; remove it to make a new pair`);
  }
}

async function readKeys(file: string): Promise<VapidKeys | null> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  // Another process may be writing it this instant (created, not yet written).
  if (!text.trim()) return null;
  let parsed: Partial<VapidKeys>;
  try {
    parsed = JSON.parse(text) as Partial<VapidKeys>;
  } catch {
    throw new ConfigError(
      `${file}: not JSON; remove it to make a new VAPID key pair (existing push subscriptions then stop working)`,
    );
  }
  const problem =
    typeof parsed.publicKey === "string" && typeof parsed.privateKey === "string"
      ? vapidKeyProblem(parsed.publicKey, parsed.privateKey)
      : { key: "VAPID_PUBLIC_KEY", message: "publicKey and privateKey are missing" };
  if (problem) throw new ConfigError(`${file}: not a valid VAPID key pair (${problem.key} ${problem.message})`);
  return { publicKey: parsed.publicKey as string, privateKey: parsed.privateKey as string };
}
