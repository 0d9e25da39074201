import type { ModerationItem } from "@app/contract";
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { IntlProvider } from "react-intl";
import { createRoutesStub } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import en from "../../../i18n/locales/en.json";
import { QueryProvider } from "../../../lib/query-client";
import { approvalTargets, keyOf, ModerationQueue } from "./queue";

afterEach(() => vi.unstubAllGlobals());

const member = (id: number, name: string) => ({ id, profile_id: id + 100, name });
const ITEMS: ModerationItem[] = [
  {
    kind: "photo",
    id: 11,
    member: member(1, "Anna"),
    submitted_at: "2026-11-27T08:00:00.000Z",
    live: false,
    is_main: true,
    private: false,
    thumb_url: "/staff/api/moderation/photos/11/thumb",
    url: "/staff/api/moderation/photos/11/full",
  },
  {
    kind: "about",
    id: 102,
    member: member(2, "Bert"),
    submitted_at: "2026-11-27T08:01:00.000Z",
    live: true,
    text: "Call me on 0612345678",
    approved_text: "Hiking and jazz",
  },
  {
    kind: "photo",
    id: 13,
    member: member(3, "Carla"),
    submitted_at: "2026-11-27T08:02:00.000Z",
    live: true,
    is_main: false,
    private: false,
    thumb_url: "/staff/api/moderation/photos/13/thumb",
    url: "/staff/api/moderation/photos/13/full",
  },
];

/** The staff API as the page calls it: the queue, and decisions recorded in `decisions`. */
function stubApi() {
  const decisions: { decision: string; reason?: string; items: Pick<ModerationItem, "kind" | "id">[] }[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      if (String(url).startsWith("/staff/api/moderation/decisions")) {
        const body = JSON.parse(String(init?.body));
        decisions.push(body);
        return Response.json({
          decided: body.items.map(({ kind, id }: { kind: string; id: number }) => ({ kind, id })),
          stale: [],
        });
      }
      return Response.json({ items: ITEMS, waiting: { photos: 2, about: 1 } });
    }),
  );
  return decisions;
}

async function renderQueue() {
  const Stub = createRoutesStub([
    {
      path: "/staff/moderation",
      Component: () => (
        <IntlProvider locale="en" messages={en}>
          <QueryProvider>
            <ModerationQueue />
          </QueryProvider>
        </IntlProvider>
      ),
    },
  ]);
  render(<Stub initialEntries={["/staff/moderation"]} />);
  await screen.findByText("Waiting in all: 2 photos and 1 text, oldest first.");
}

const press = (key: string) => act(() => void fireEvent.keyDown(window, { key }));
const currentItem = () => document.querySelector("[aria-current='true']")?.getAttribute("data-item");

describe("approvalTargets", () => {
  it("approves the selection when there is one, else the current item", () => {
    expect(approvalTargets(ITEMS, new Set(), 1).map(keyOf)).toEqual(["about:102"]);
    expect(approvalTargets(ITEMS, new Set(["photo:13", "photo:11"]), 1).map(keyOf)).toEqual(["photo:11", "photo:13"]);
    expect(approvalTargets([], new Set(), 0)).toEqual([]);
  });
});

describe("the moderation queue", () => {
  it("shows each photo and text with its member, oldest first, and whether others see it meanwhile", async () => {
    stubApi();
    await renderQueue();
    const rows = screen.getAllByRole("listitem").filter((li) => li.hasAttribute("data-item"));
    expect(rows.map((row) => row.getAttribute("data-item"))).toEqual(["photo:11", "about:102", "photo:13"]);
    expect(within(rows[0] as HTMLElement).getByRole("img", { name: "Photo of Anna" })).toBeVisible();
    expect(within(rows[0] as HTMLElement).getByText("Hidden until approved")).toBeVisible();
    expect(within(rows[1] as HTMLElement).getByText("Call me on 0612345678")).toBeVisible();
    expect(within(rows[1] as HTMLElement).getByText("Hiking and jazz")).toBeVisible();
    expect(within(rows[1] as HTMLElement).getByText("Live now, reviewed after")).toBeVisible();
    expect(within(rows[1] as HTMLElement).getByRole("heading").textContent).toBe("About text · Bert (member 2)");
  });

  it("moves with j/k, selects with x and approves the selection with a", async () => {
    const decisions = stubApi();
    await renderQueue();
    expect(currentItem()).toBe("photo:11");
    press("j");
    press("j");
    press("j");
    expect(currentItem()).toBe("photo:13");
    press("x");
    press("k");
    press("k");
    press("x");
    expect(screen.getByRole("button", { name: "Approve 2 selected items" })).toBeVisible();
    press("a");
    await waitFor(() => expect(decisions).toHaveLength(1));
    expect(decisions[0]).toEqual({
      decision: "approve",
      items: [
        { kind: "photo", id: 11, submitted_at: "2026-11-27T08:00:00.000Z" },
        { kind: "photo", id: 13, submitted_at: "2026-11-27T08:02:00.000Z" },
      ],
    });
    expect(await screen.findByText("2 items approved.")).toBeVisible();
  });

  it("a without a selection approves the current item only", async () => {
    const decisions = stubApi();
    await renderQueue();
    press("j");
    press("a");
    await waitFor(() => expect(decisions).toHaveLength(1));
    expect(decisions[0]?.items.map(keyOf)).toEqual(["about:102"]);
  });

  it("r opens the reason picker: a number picks the reason, Enter rejects with it", async () => {
    const decisions = stubApi();
    await renderQueue();
    press("j");
    press("r");
    const dialog = await screen.findByRole("dialog", { name: "Reject: why? (Bert)" });
    expect(within(dialog).getByRole("radio", { name: /Not a person/ })).toHaveProperty("checked", true);
    // What the member will read stands beside each reason.
    expect(within(dialog).getByText("Contact details (phone, e-mail, social media or links)")).toBeVisible();
    const first = within(dialog).getByRole("radio", { name: /Not a person/ });
    fireEvent.keyDown(first, { key: "3" });
    expect(within(dialog).getByRole("radio", { name: /^3 Contact details/ })).toHaveProperty("checked", true);
    fireEvent.keyDown(within(dialog).getByRole("radio", { name: /^3 Contact details/ }), { key: "Enter" });
    await waitFor(() => expect(decisions).toHaveLength(1));
    expect(decisions[0]).toEqual({
      decision: "reject",
      reason: "contact_details",
      items: [{ kind: "about", id: 102, submitted_at: "2026-11-27T08:01:00.000Z" }],
    });
  });

  it("Cancel leaves the item undecided", async () => {
    const decisions = stubApi();
    await renderQueue();
    press("r");
    const dialog = await screen.findByRole("dialog");
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(decisions).toEqual([]);
  });
});
