// @vitest-environment node
import { describe, expect, it } from "vitest";
import routes from "../routes";
import { inMembersArea, MEMBERS_AREA_ROUTE_IDS } from "./members-area";

interface RouteEntry {
  id?: string;
  path?: string;
  children?: RouteEntry[];
}

const flatten = (entries: readonly RouteEntry[]): RouteEntry[] =>
  entries.flatMap((entry) => [entry, ...flatten(entry.children ?? [])]);

describe("the members area (spec §2)", () => {
  const all = flatten(routes as RouteEntry[]);
  const pathOf = (id: string) => all.find((entry) => entry.id === id)?.path;

  it("names routes that exist, with the paths of the spec", () => {
    expect(MEMBERS_AREA_ROUTE_IDS.map(pathOf)).toEqual(["members", "members/:id", "chats", "likes", "likes/m/:id", "premium"]);
  });

  it("is decided by the route id, so /chats/{id}, /credits and /profile are outside", () => {
    expect(inMembersArea(["root", "routes/default-layout", "likes-m-id"])).toBe(true);
    expect(inMembersArea(["root", "ui/layouts/chat-layout", "chats"])).toBe(true);
    expect(inMembersArea(["root", "ui/layouts/chat-layout", "chats-id"])).toBe(false);
    expect(inMembersArea(["root", "routes/default-layout", "credits"])).toBe(false);
    expect(inMembersArea(["root", "routes/default-layout", "routes/profile"])).toBe(false);
  });
});
