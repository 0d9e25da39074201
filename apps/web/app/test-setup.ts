import "@testing-library/jest-dom/vitest";
import { cleanup } from "@testing-library/react";
import { afterEach, beforeAll } from "vitest";
import { loadServerFrames } from "./lib/server-events";

// The browser loads the live connection's frame schema when a member connects; tests load it first,
// so that a fake socket opens at once as before (decision 025).
beforeAll(() => loadServerFrames());
afterEach(() => cleanup());
