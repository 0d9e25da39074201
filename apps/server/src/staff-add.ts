import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { isLocaleCode, STAFF_ROLES, STAFF_RULES, type StaffRole, staffCreateRequestSchema } from "@app/contract";
import QRCode from "qrcode";
import { StaffService } from "./modules/staff/service.ts";
import { loadConfigOrExit } from "./platform/config.ts";
import { openDatabase } from "./platform/db/index.ts";

const USAGE = `npm run staff:add -- --email <address> --role <${STAFF_ROLES.join("|")}> [--name <name>] [--language <en|nl|de|es|fr|it|pl>] [--password <password>]

Creates a staff account of the console (/staff) in DATABASE_URL's database (or DATA_DIR's PGlite) and
prints, once, what its owner needs: the password (a random one unless given), the TOTP secret with a QR
code for an authenticator app, and ten one-time recovery codes.`;

/** `npm run staff:add`: the way the first admin (and any staff account) is made without the console. */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      email: { type: "string" },
      role: { type: "string" },
      name: { type: "string" },
      language: { type: "string", default: "en" },
      password: { type: "string" },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help || !values.email || !values.role) {
    console.log(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  const generated = values.password === undefined;
  const input = staffCreateRequestSchema.safeParse({
    email: values.email,
    role: values.role,
    name: values.name ?? values.email.split("@")[0],
    language: values.language,
    password: values.password ?? randomBytes(18).toString("base64url"),
  });
  if (!input.success || !isLocaleCode(values.language)) {
    console.error(
      `Not created: ${input.error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ") ?? "unknown language"}`,
    );
    console.error(`(passwords: ${STAFF_RULES.passwordMin}-${STAFF_RULES.passwordMax} characters)\n\n${USAGE}`);
    process.exit(2);
  }
  const config = loadConfigOrExit();
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.dataDir, poolSize: 1 });
  try {
    const staff = new StaffService(database.db);
    const enrolment = await staff.create({ ...input.data, role: input.data.role as StaffRole });
    console.log(`Staff account ${enrolment.account.email} (${enrolment.account.role}) created, id ${enrolment.account.id}.`);
    if (generated) console.log(`Password: ${input.data.password}`);
    console.log(`TOTP secret: ${enrolment.totp_secret}\n${enrolment.otpauth_uri}`);
    console.log(await QRCode.toString(enrolment.otpauth_uri, { type: "terminal", small: true }));
    console.log(`Recovery codes (each works once in place of a code):\n${enrolment.recovery_codes.join("\n")}`);
  } catch (error) {
    const code = (error as { code?: string }).code;
    console.error(code === "email_taken" ? `Not created: ${values.email} already has a staff account.` : error);
    process.exitCode = 1;
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
