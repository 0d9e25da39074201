import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";

/**
 * Follows every same-site link of the server-rendered pages, breadth first, and collects the links
 * that answer 404 (or fail on the server). Links that differ only in their numbers (`/members/12`,
 * `/members/13`) are one kind of page: at most `perKind` of each are followed, so that forty profiles
 * do not make forty identical requests.
 */
async function brokenLinks(request: APIRequestContext, starts: string[], { maxPages = 150, perKind = 3 } = {}) {
  const queue = starts.map((url) => ({ url, from: "(start)" }));
  const seen = new Set(starts);
  const kinds = new Map<string, number>();
  const broken: string[] = [];
  let visited = 0;
  while (queue.length > 0 && visited < maxPages) {
    const { url, from } = queue.shift() as { url: string; from: string };
    visited++;
    const response = await request.get(url);
    if (response.status() === 404 || response.status() >= 500)
      broken.push(`${url} answered ${response.status()} (linked from ${from})`);
    if (!(response.headers()["content-type"] ?? "").includes("text/html")) continue;
    const html = await response.text();
    for (const match of html.matchAll(/\shref="([^"]*)"/g)) {
      const href = (match[1] ?? "").replaceAll("&amp;", "&").split("#")[0] ?? "";
      if (!href.startsWith("/") || href.startsWith("//") || seen.has(href)) continue;
      const kind = href.split("?")[0]?.replace(/\d+/g, "#") ?? href;
      const count = kinds.get(kind) ?? 0;
      if (count >= perKind) continue;
      kinds.set(kind, count + 1);
      seen.add(href);
      queue.push({ url: href, from: url });
    }
  }
  return { broken, visited };
}

test("no link a visitor can follow leads to a missing page", async ({ page }) => {
  const { profiles } = (await (await page.request.get("/api/members.php")).json()) as { profiles: { id: number }[] };
  const member = profiles[0]?.id;
  const landers = ["adultonly", "tinderswipe", "whoneedsstrings", "alonetonight", "collagelanding", "gallery"]
    .concat(["iconslanding", "maplanding", "socialnetwork", "transitionsvideolanding", "video"])
    .map((name) => `/landers/${name}`);
  const starts = ["/", "/members", `/members/${member}`, `/members/${member}/landing`, ...landers];
  const { broken, visited } = await brokenLinks(page.request, starts);
  expect(broken).toEqual([]);
  // The crawl really walked the site: home, search, profiles, the legal pages, pricing, complaints, assets.
  expect(visited).toBeGreaterThan(25);
});

test("no link a member can follow leads to a missing page", async ({ page, loginAs }) => {
  await loginAs("premium");
  const starts = ["/members", "/profile", "/settings", "/chats", "/likes", "/credits", "/transactions", "/notifications"];
  const { broken, visited } = await brokenLinks(page.request, starts);
  expect(broken).toEqual([]);
  expect(visited).toBeGreaterThan(25);
});
