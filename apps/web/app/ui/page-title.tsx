import { formatBadgeCount } from "@app/contract";
import { useRootData } from "../lib/root-data";

/**
 * The document title: "<page> | <site>", prefixed with "(n) " when the member has unread messages or
 * new likes (spec §2). React 19 hoists <title> into <head>, on the server and after navigation.
 */
export function PageTitle({ title, count = 0 }: { title: string; count?: number }) {
  const site = useRootData()?.settings.name;
  const prefix = count > 0 ? `(${formatBadgeCount(count)}) ` : "";
  return <title>{`${prefix}${title}${site ? ` | ${site}` : ""}`}</title>;
}
