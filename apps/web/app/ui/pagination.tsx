import { Pagination } from "react-bootstrap";
import { useIntl } from "react-intl";
import { Link } from "react-router";

/** The pages a pager shows: the first, the last and a window around the current one; null is a gap. */
export function pageWindow(page: number, pages: number, radius = 2): (number | null)[] {
  if (pages <= 1) return [];
  const shown = new Set<number>([1, pages]);
  for (let p = Math.max(1, page - radius); p <= Math.min(pages, page + radius); p++) shown.add(p);
  const sorted = [...shown].sort((a, b) => a - b);
  const out: (number | null)[] = [];
  for (const [i, p] of sorted.entries()) {
    const previous = sorted[i - 1];
    if (previous !== undefined && p - previous > 1) out.push(p - previous === 2 ? p - 1 : null);
    out.push(p);
  }
  return out;
}

/**
 * Links to the pages of a list (search results, the likes overview): previous, a window of page
 * numbers and next, each a link made by `href` (react-bootstrap's own labels are English only).
 */
export function PageLinks({ page, pages, href }: { page: number; pages: number; href: (page: number) => string }) {
  const intl = useIntl();
  const items = pageWindow(page, pages);
  if (items.length === 0) return null;
  const step = (target: number, symbol: string, labelId: string, disabled: boolean) => {
    const label = intl.formatMessage({ id: labelId });
    const glyph = <span aria-hidden="true">{symbol}</span>;
    // A disabled item renders as a <span>, where aria-label is not allowed: name it with hidden text.
    return disabled ? (
      <Pagination.Item disabled>
        {glyph}
        <span className="visually-hidden">{label}</span>
      </Pagination.Item>
    ) : (
      <Pagination.Item as={Link} to={href(target)} aria-label={label}>
        {glyph}
      </Pagination.Item>
    );
  };
  return (
    <nav aria-label={intl.formatMessage({ id: "search.pages" })} className="mt-4">
      <Pagination className="flex-wrap justify-content-center">
        {step(page - 1, "‹", "search.previous", page <= 1)}
        {items.map((p, i) =>
          p === null ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: a gap has no identity but its place
            <Pagination.Item key={`gap-${i}`} disabled aria-hidden="true">
              …
            </Pagination.Item>
          ) : p === page ? (
            <Pagination.Item key={p} active activeLabel="" aria-current="page">
              {intl.formatNumber(p)}
            </Pagination.Item>
          ) : (
            <Pagination.Item key={p} as={Link} to={href(p)} aria-label={intl.formatMessage({ id: "search.page" }, { page: p })}>
              {intl.formatNumber(p)}
            </Pagination.Item>
          ),
        )}
        {step(page + 1, "›", "search.next", page >= pages)}
      </Pagination>
    </nav>
  );
}
