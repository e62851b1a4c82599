import { isIP } from "node:net";

/**
 * Who is calling, as one word for the server entry (server/index.ts, which sets it and shares the
 * server between callers) and the app (rate-limit.server.ts, which counts per caller). Pure, with
 * no state: the server entry's bundle takes its own copy.
 */

/**
 * The request header the shop's own server entry (server/index.ts) sets on every request to the
 * caller's address, replacing any value the caller sent: the socket's peer, or what the proxy
 * TRUST_PROXY names says. IPv4-mapped IPv6 is already IPv4 there.
 */
export const CLIENT_ADDRESS_HEADER = "X-Shop-Client-Address";

/**
 * The request header the server entry sets on every request to the socket's peer (replacing any
 * value the caller sent). Only /metrics reads it: fly.io scrapes it over its private network
 * straight to the machine, past the edge proxy, so such a request has no Fly-Client-IP and no
 * X-Shop-Client-Address, and its peer is the scraper itself (app/server/metrics/access.server.ts).
 */
export const PEER_ADDRESS_HEADER = "X-Shop-Peer-Address";

/** The headers a proxy in front writes to name the caller (lower case, as Node keeps them). */
export const FORWARDING_HEADERS = ["x-forwarded-for", "forwarded", "fly-client-ip", "x-real-ip"] as const;

/** An IPv6 address's eight 16-bit groups (any spelling: compressed, zero-padded, IPv4 tail, zone). */
function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase().replace(/%.*$/, "");
  const v4Tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4Tail) {
    const [a, b, c, d] = v4Tail.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4Tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail, ...more] = text.split("::");
  if (more.length > 0) return null;
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((group) => parseInt(group, 16)));
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  const zeros = 8 - front.length - back.length;
  if (tail === undefined ? zeros !== 0 : zeros < 1) return null;
  const groups = [...front, ...new Array<number>(zeros).fill(0), ...back];
  return groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? groups : null;
}

/**
 * Who a per-origin limit counts: an IPv4 address itself, an IPv6 address's /64 (one home or one
 * server is given a whole /64 and can pick any address in it, so counting single addresses would
 * hand it 2^64 buckets), written one way whatever the spelling. A stray IPv4-mapped IPv6 address
 * (`::ffff:a.b.c.d`) is the IPv4 address it carries: the edge converts them, this makes sure.
 */
export function originOf(address: string): string {
  if (isIP(address) !== 6) return address;
  const groups = ipv6Groups(address);
  if (!groups) return address;
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}
