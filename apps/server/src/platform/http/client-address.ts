import ipaddr from "ipaddr.js";

/**
 * The network a client address stands for, for counting: IPv4 as is, IPv6 by its /64 (one subscriber
 * usually has a whole /64, so counting single IPv6 addresses would limit nobody). Login locks, rate
 * limits and the WebSocket cap all count by it.
 */
export function clientNetwork(address: string): string {
  try {
    let parsed = ipaddr.parse(address);
    if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
      parsed = (parsed as ipaddr.IPv6).toIPv4Address();
    if (parsed.kind() === "ipv4") return parsed.toString();
    return `${(parsed as ipaddr.IPv6).parts
      .slice(0, 4)
      .map((p) => p.toString(16))
      .join(":")}::/64`;
  } catch {
    return address;
  }
}
