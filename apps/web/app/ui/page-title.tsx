import { formatBadgeCount } from "@app/contract";
import { unreadTotal, useBadgeCounts } from "../lib/badges";
import { useRootData } from "../lib/root-data";

/**
 * The document title: "<page> | <site>", prefixed with "(n) " when the member has unread messages or
 * new likes (spec §2; the counts the likes feature provides). React 19 hoists <title>
 * into <head>, on the server and after navigation.
 */
export function PageTitle({ title }: { title: string }) {
  const site = useRootData()?.settings.name;
  const count = unreadTotal(useBadgeCounts());
  const prefix = count > 0 ? `(${formatBadgeCount(count)}) ` : "";
  return <title>{`${prefix}${title}${site ? ` | ${site}` : ""}`}</title>;
}
