import { describe, expect, it } from "vitest";
import { allPass, formatTable, largest, totals } from "./bundle-report.ts";

const page = (status: number, scripts: { url: string; raw: number; gzip: number }[]) => ({ page: "/", status, scripts });

describe("bundle report", () => {
  it("sums the raw and gzip bytes of a page's scripts, counting a URL fetched twice once", () => {
    const result = totals(
      page(200, [
        { url: "http://h/assets/a.js", raw: 3000, gzip: 1000 },
        { url: "http://h/assets/b.js", raw: 2000, gzip: 500 },
        { url: "http://h/assets/a.js", raw: 3000, gzip: 1000 },
      ]),
    );
    expect(result).toEqual({ page: "/", status: 200, files: 2, raw: 5000, gzip: 1500 });
  });

  it("marks pages over the goal FAIL, under it PASS, and pages that are not 200 as not measured", () => {
    const rows = formatTable(
      [
        { page: "/", status: 200, files: 3, raw: 400_000, gzip: 150 * 1024 },
        { page: "/pages/terms", status: 200, files: 2, raw: 200_000, gzip: 100 * 1024 },
        { page: "/landers/video", status: 404, files: 0, raw: 0, gzip: 0 },
      ],
      100 * 1024,
    );
    expect(rows[1]).toMatch(/^\/ .* 150\.0 KB\s+FAIL$/);
    expect(rows[2]).toMatch(/100\.0 KB\s+PASS$/);
    expect(rows[3]).toMatch(/404, not measured$/);
  });

  it("prints sizes without a verdict when no goal applies", () => {
    const rows = formatTable([{ page: "/", status: 200, files: 3, raw: 400_000, gzip: 150 * 1024 }], null);
    expect(rows[0]).not.toContain("goal");
    expect(rows[1]).toMatch(/^\/ .* 150\.0 KB$/);
  });

  it("passes only when every measured page meets the goal", () => {
    const ok = { page: "/a", status: 200, files: 1, raw: 1, gzip: 10 };
    const missing = { page: "/b", status: 404, files: 0, raw: 0, gzip: 0 };
    expect(allPass([ok, missing], 10)).toBe(true);
    expect(allPass([ok, { ...ok, gzip: 11 }], 10)).toBe(false);
  });

  it("lists the largest files by gzip size, largest first", () => {
    const lines = largest(
      page(200, [
        { url: "http://h/assets/small.js", raw: 100, gzip: 50 },
        { url: "http://h/assets/big.js", raw: 9000, gzip: 3000 },
        { url: "http://h/assets/mid.js", raw: 4000, gzip: 1024 },
      ]),
      2,
    );
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain("/assets/big.js");
    expect(lines[1]).toMatch(/1\.0 KB gzip .*\/assets\/mid\.js$/);
  });
});
