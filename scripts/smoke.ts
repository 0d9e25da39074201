/**
 * After a deployment (docs/deploy.md): checks a site through its public address as a browser would.
 * The home page renders, `/healthz` answers, a member logs in, and that member's WebSockets (opened until
 * they landed on two different nodes, when there are two) each receive the event of a like given by a
 * second member over HTTP: upgrades pass the proxy, and events cross nodes through Redis. The like is
 * taken back at the end. Needs two active accounts (the demo ones by default).
 *
 *   node scripts/smoke.ts https://dating.example   (SMOKE_MEMBER=email:password, SMOKE_LIKER=email:password)
 */
import WebSocket from "ws";

const base = (process.argv[2] ?? "http://127.0.0.1:3000").replace(/\/$/, "");
const account = (value: string | undefined, fallback: string) => {
  const [email = "", password = ""] = (value ?? fallback).split(":");
  return { email, password };
};
const member = account(process.env.SMOKE_MEMBER, "free@example.com:free-demo-2025");
const liker = account(process.env.SMOKE_LIKER, "premium@example.com:premium-demo-2025");
const origin = new URL(base).origin;
const wsUrl = `${origin.replace(/^http/, "ws")}/ws`;

function check(ok: unknown, what: string): asserts ok {
  if (!ok) throw new Error(`FAILED: ${what}`);
  console.log(`ok   ${what}`);
}

async function logIn(who: { email: string; password: string }): Promise<{ cookie: string; profileId: number }> {
  const response = await fetch(`${base}/api/user.php`, {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: JSON.stringify(who),
  });
  const body = (await response.json()) as { user?: { profile?: { id: number } } };
  check(response.ok && body.user?.profile, `${who.email} logs in (${response.status})`);
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  return { cookie, profileId: body.user.profile.id };
}

/** A member event as the socket carries it (`{ type: "event", seq, event }`). */
type Frame = { type: string; event?: { type: string; profile_id?: number } };
interface Socket {
  node: string;
  frames: Frame[];
  close(): void;
}

function openSocket(cookie: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl, { headers: { cookie, origin } });
    const frames: Socket["frames"] = [];
    const timer = setTimeout(() => reject(new Error(`no hello from ${wsUrl} within 10 s`)), 10_000);
    ws.on("error", reject);
    ws.on("message", (raw) => {
      const frame = JSON.parse(String(raw)) as Frame & { node?: string; user_id?: number | null };
      if (frame.type === "hello") {
        clearTimeout(timer);
        if (frame.user_id === null) reject(new Error("the socket was not authenticated by the session cookie"));
        resolve({ node: String(frame.node), frames, close: () => ws.close() });
      } else frames.push(frame);
    });
  });
}

const home = await fetch(`${base}/`);
check(home.ok && (await home.text()).includes("<html"), `GET / renders the home page (${home.status})`);
const health = await fetch(`${base}/healthz`);
check(health.ok, `GET /healthz ${health.status} ${await health.clone().text()}`);

const { cookie, profileId } = await logIn(member);
const sockets: Socket[] = [];
for (let i = 0; i < 8 && new Set(sockets.map((s) => s.node)).size < 2; i++) sockets.push(await openSocket(cookie));
const nodes = new Set(sockets.map((s) => s.node));
check(sockets.length > 0, `${sockets.length} WebSocket(s) through ${wsUrl}, authenticated, on ${nodes.size} node(s)`);

const other = await logIn(liker);
const headers = { cookie: other.cookie, origin, "content-type": "application/json" };
await fetch(`${base}/api/like.php?id=${profileId}`, { method: "DELETE", headers: { cookie: other.cookie, origin } });
const like = await fetch(`${base}/api/like.php`, { method: "POST", headers, body: JSON.stringify({ id: profileId }) });
check(like.ok, `${liker.email} likes profile ${profileId} over HTTP (${like.status})`);
const deadline = Date.now() + 5000;
const received = () =>
  sockets.filter((s) => s.frames.some((f) => f.event?.type === "like.received" && f.event.profile_id === other.profileId));
while (received().length < sockets.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
check(
  received().length === sockets.length,
  `the like reached ${received().length} of ${sockets.length} socket(s) on node(s) ${[...nodes].join(", ")}`,
);
await fetch(`${base}/api/like.php?id=${profileId}`, { method: "DELETE", headers: { cookie: other.cookie, origin } });
for (const socket of sockets) socket.close();
console.log("smoke check passed");
