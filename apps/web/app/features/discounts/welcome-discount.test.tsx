import { act, fireEvent, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { stubApi, testUser } from "../../test-utils";
import { DiscountNotice, WelcomeDiscountModal, welcomeModalKey } from "./discount-notice";
import { FAKE_CLOCK, renderWithDiscounts, timeBonusAnswer, welcomeAnswer } from "./test-render";

beforeEach(() => localStorage.clear());
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const later = (ms: number) => act(async () => vi.advanceTimersByTimeAsync(ms));
const notice = () => document.querySelector("[data-discount-notice]");
const noBonus = { time_bonus: null };
const welcomeCalls = (fetch: ReturnType<typeof stubApi>) =>
  fetch.mock.calls.filter(([url]) => url === "/api/discountcode.php?welcome=true").length;

describe("the welcome discount (spec §1, §4, §7)", () => {
  it("is asked for when there is no time bonus, and shown with its hours left", async () => {
    const fetch = stubApi({
      "GET /api/time-bonus.php": noBonus,
      "GET /api/discountcode.php?welcome=true": welcomeAnswer(47 * 3600 + 59 * 60),
    });
    renderWithDiscounts(<DiscountNotice />, { user: testUser(), routeId: "credits", path: "/credits" });
    expect(await screen.findByText("47 hours left")).toBeInTheDocument();
    expect(notice()).toHaveTextContent("Welcome discount: 25% off your first purchase. 47 hours left");
    expect(welcomeCalls(fetch)).toBe(1);
  });

  it("counts down in hours, then in minutes, and is gone at the end", async () => {
    vi.useFakeTimers(FAKE_CLOCK);
    stubApi({ "GET /api/time-bonus.php": noBonus, "GET /api/discountcode.php?welcome=true": welcomeAnswer(3_600) });
    renderWithDiscounts(<DiscountNotice />, { user: testUser(), routeId: "credits", path: "/credits" });
    await later(100);
    expect(notice()).toHaveTextContent("1 hour left");
    await later(1_000);
    expect(notice()).toHaveTextContent("59 minutes left");
    // 119 s left: still "1 minute"; 59 s left: at least one minute is said while any second is left.
    await later(58 * 60_000);
    expect(notice()).toHaveTextContent("1 minute left");
    await later(60_000);
    expect(notice()).toHaveTextContent("1 minute left");
    await later(59_000);
    expect(notice()).toBeNull();
  });

  it("is ignored when its load fails (spec §8), and not asked for while a time bonus is shown instead", async () => {
    vi.useFakeTimers(FAKE_CLOCK);
    const failing = stubApi({
      "GET /api/time-bonus.php": noBonus,
      "GET /api/discountcode.php?welcome=true": new Response(JSON.stringify({ error: "internal", message: "Oops" }), {
        status: 500,
      }),
    });
    const first = renderWithDiscounts(<DiscountNotice />, { user: testUser(), routeId: "credits", path: "/credits" });
    await later(30_000);
    expect(welcomeCalls(failing)).toBeGreaterThan(0);
    expect(notice()).toBeNull();
    expect(screen.queryByRole("alert")).toBeNull();
    first.unmount();

    const withBonus = stubApi({
      "GET /api/time-bonus.php": timeBonusAnswer(600),
      "GET /api/discountcode.php?welcome=true": welcomeAnswer(3_600),
    });
    renderWithDiscounts(<DiscountNotice />, { user: testUser(), routeId: "credits", path: "/credits" });
    await later(100);
    expect(notice()).toHaveTextContent("25% off your first credits with your time bonus. It ends in 00:10:00.");
    expect(welcomeCalls(withBonus)).toBe(0);
  });

  it("is not asked for for a paid member", async () => {
    vi.useFakeTimers(FAKE_CLOCK);
    const fetch = stubApi({ "GET /api/time-bonus.php": noBonus, "GET /api/discountcode.php?welcome=true": welcomeAnswer(3_600) });
    renderWithDiscounts(<DiscountNotice />, { user: testUser({ paid_user: true }), routeId: "credits", path: "/credits" });
    await later(1_000);
    expect(fetch).not.toHaveBeenCalled();
    expect(notice()).toBeNull();
  });
});

describe("the welcome-bonus discount modal (spec §2)", () => {
  it("opens once per member where credits are sold; closing it is remembered with a timestamp", async () => {
    stubApi({ "GET /api/time-bonus.php": noBonus, "GET /api/discountcode.php?welcome=true": welcomeAnswer(5 * 3600) });
    const first = renderWithDiscounts(<WelcomeDiscountModal />, { user: testUser(), routeId: "credits", path: "/credits" });
    const dialog = await screen.findByRole("dialog", { name: "Welcome! 25% off your first purchase" });
    expect(dialog).toHaveTextContent("your first credit package costs 25% less");
    expect(dialog).toHaveTextContent("5 hours left");
    fireEvent.click(screen.getByRole("button", { name: "Choose my package" }));
    await vi.waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    const remembered = localStorage.getItem(welcomeModalKey(7));
    expect(new Date(remembered ?? "").toISOString()).toBe(remembered);
    first.unmount();

    const second = renderWithDiscounts(
      <>
        <WelcomeDiscountModal />
        <DiscountNotice />
      </>,
      { user: testUser(), routeId: "credits", path: "/credits" },
    );
    expect(await screen.findByText("5 hours left")).toBeInTheDocument();
    expect(screen.queryByRole("dialog")).toBeNull();
    second.unmount();

    // Another member on this browser still gets theirs.
    renderWithDiscounts(<WelcomeDiscountModal />, { user: testUser({ id: 8 }), routeId: "credits", path: "/credits" });
    expect(await screen.findByRole("dialog")).toBeInTheDocument();
  });

  it("does not open while the time bonus is the discount shown", async () => {
    stubApi({ "GET /api/time-bonus.php": timeBonusAnswer(600), "GET /api/discountcode.php?welcome=true": welcomeAnswer(3_600) });
    renderWithDiscounts(
      <>
        <WelcomeDiscountModal />
        <DiscountNotice />
      </>,
      { user: testUser(), routeId: "credits", path: "/credits" },
    );
    expect(await screen.findByRole("timer")).toBeInTheDocument();
    expect(screen.queryByRole("dialog")).toBeNull();
  });
});
