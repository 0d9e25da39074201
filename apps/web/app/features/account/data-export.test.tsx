import { fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { apiError, renderAsMember, stubApi, testUser } from "../../test-utils";
import { DataExportSettings } from "./data-export";

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("Download my data (settings)", () => {
  it("fetches GET /api/export.php and saves the ZIP under the server's file name", async () => {
    const zip = new Response(new Uint8Array([0x50, 0x4b, 3, 4]), {
      status: 200,
      headers: {
        "content-type": "application/zip",
        "content-disposition": 'attachment; filename="amoria-data-7-2026-11-27.zip"',
      },
    });
    const fetch = stubApi({ "GET /api/export.php": zip });
    const createObjectURL = vi.fn(() => "blob:export");
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(`${this.download} ${this.href}`);
    });
    renderAsMember(<DataExportSettings />, { user: testUser(), path: "/settings" });

    fireEvent.click(screen.getByRole("button", { name: "Download my data" }));

    expect(await screen.findByText("Your file has been downloaded.")).toBeTruthy();
    expect(fetch).toHaveBeenCalledWith("/api/export.php", expect.objectContaining({ credentials: "same-origin" }));
    expect(createObjectURL).toHaveBeenCalledTimes(1);
    expect(saved).toEqual(["amoria-data-7-2026-11-27.zip blob:export"]);
  });

  it("shows the server's translated refusal (the rate limit) and saves nothing", async () => {
    stubApi({ "GET /api/export.php": apiError(429, "rate_limited", "Too many attempts. Please wait a moment.") });
    const click = vi.spyOn(HTMLAnchorElement.prototype, "click");
    renderAsMember(<DataExportSettings />, { user: testUser(), path: "/settings" });

    fireEvent.click(screen.getByRole("button", { name: "Download my data" }));

    expect((await screen.findByRole("alert")).textContent).toBe("Too many attempts. Please wait a moment.");
    expect(click).not.toHaveBeenCalled();
    expect(screen.getByRole("button", { name: "Download my data" })).toHaveProperty("disabled", false);
  });
});
