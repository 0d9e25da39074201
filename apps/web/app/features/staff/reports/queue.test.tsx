import type { QueueItemView, StaffContext } from "@app/contract";
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { IntlProvider } from "react-intl";
import { afterEach, describe, expect, it, vi } from "vitest";
import en from "../../../i18n/locales/en.json";
import { QueryProvider } from "../../../lib/query-client";
import { StaffProvider } from "../context";
import { ReportsQueue } from "./queue";

afterEach(() => vi.unstubAllGlobals());

const STAFF: StaffContext = { id: 7, email: "mod@staff.example", name: "Mo", role: "admin", language: "en" };
const handling = { status: "open" as const, assigned_to: null, assigned_to_name: null, resolution: null, closed_at: null };
const ITEMS: QueueItemView[] = [
  {
    kind: "report",
    id: 1,
    ...handling,
    created_at: "2026-11-27T08:00:00.000Z",
    reason: "scam",
    text: "Asked for money",
    object_type: "profile",
    member_id: 40,
    profile_id: 41,
    reporter_id: 50,
    content: { type: "profile", name: "Mallory", about: "Send me a ticket", main_photo_url: null },
  },
  {
    kind: "complaint",
    id: 2,
    ...handling,
    created_at: "2026-11-27T08:05:00.000Z",
    reference: "C-ABCD-EFGH",
    subject: "payment",
    description: "I paid twice for the same bundle.",
    email: "payer@example.org",
    locale: "de",
    complainant_id: null,
    profile_id: null,
    answers: [],
  },
];

/** The staff API: the queue, and the writes recorded in `calls`. */
function stubApi() {
  const calls: { url: string; body: unknown }[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      if (init?.method === "POST") {
        calls.push({ url: String(url), body: JSON.parse(String(init.body)) });
        const item = ITEMS.find((i) => String(url).includes(`/${i.id}/`)) as QueueItemView;
        return Response.json({ item: { ...item, status: "in_progress", assigned_to: STAFF.id } });
      }
      return Response.json({ items: ITEMS });
    }),
  );
  return calls;
}

async function renderQueue() {
  render(
    <IntlProvider locale="en" messages={en}>
      <QueryProvider>
        <StaffProvider staff={STAFF}>
          <ReportsQueue />
        </StaffProvider>
      </QueryProvider>
    </IntlProvider>,
  );
  await screen.findByText("Profile of Mallory");
}
const press = (key: string) => act(() => void fireEvent.keyDown(window, { key }));
const heading = () => screen.getByRole("heading", { level: 2, name: /Report 1|Complaint C-/ }).textContent;

describe("the queue of reports and complaints", () => {
  it("lists both kinds oldest first with the reported content, and lists its shortcuts", async () => {
    stubApi();
    await renderQueue();
    expect(screen.getByText("Complaint C-ABCD-EFGH", { selector: "span" })).toBeVisible();
    expect(heading()).toBe("Report 1: a profile");
    expect(screen.getByText("Send me a ticket")).toBeVisible();
    expect(screen.getByText("Asked for money")).toBeVisible();
    for (const key of ["j / k", "Enter", "a", "b", "d", "r", "c", "Esc"])
      expect(screen.getAllByText(key, { selector: "kbd" }).length).toBeGreaterThan(0);
  });

  it("moves with j/k, assigns with a, and opens the complaint's answer form with r (not the report's ban form)", async () => {
    const calls = stubApi();
    await renderQueue();
    press("j");
    expect(heading()).toBe("Complaint C-ABCD-EFGH");
    expect(screen.getByText("I paid twice for the same bundle.")).toBeVisible();
    press("b");
    expect(screen.queryByRole("form", { name: "Ban the reported member" })).toBeNull();
    press("r");
    expect(screen.getByLabelText("Answer to payer@example.org")).toBeVisible();
    expect(screen.getByText(/the complainant's language/).textContent).toContain("German");
    press("Escape");
    expect(screen.queryByLabelText("Answer to payer@example.org")).toBeNull();
    press("a");
    await waitFor(() => expect(calls).toEqual([{ url: "/staff/api/complaints/2/assign", body: {} }]));
    press("k");
    expect(heading()).toBe("Report 1: a profile");
    press("b");
    expect(screen.getByRole("form", { name: "Ban the reported member" })).toBeVisible();
  });
});
