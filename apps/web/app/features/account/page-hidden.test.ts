import { ENDPOINTS } from "@app/contract";
import { expect, it } from "vitest";
import { PAGE_HIDDEN_PATH } from "./page-hidden";

it("beacons to the contract's page-hidden endpoint", () => {
  expect(ENDPOINTS.pageHidden).toMatchObject({ method: "POST", path: PAGE_HIDDEN_PATH });
});
