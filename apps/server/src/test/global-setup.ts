/** Says once which database and bus the server tests use, so a run's log shows what it proved. */
export default function setup(): void {
  const database = process.env.TEST_DATABASE_URL ? `PostgreSQL (${redact(process.env.TEST_DATABASE_URL)})` : "PGlite (in memory)";
  const bus = process.env.TEST_REDIS_URL ? `Redis (${redact(process.env.TEST_REDIS_URL)})` : "in-process bus";
  console.log(`[server tests] database: ${database}; bus: ${bus}`);
}

function redact(url: string): string {
  const parsed = new URL(url);
  parsed.password = parsed.password ? "***" : "";
  return parsed.toString();
}
