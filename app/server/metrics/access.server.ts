import crypto from "node:crypto";
import { BlockList, isIP } from "node:net";
import { env, type TrustProxy } from "../core/env.server";
import {
  CLIENT_ADDRESS_HEADER,
  FORWARDING_HEADERS,
  PEER_ADDRESS_HEADER,
} from "../http/client-address.server";

/**
 * Who may read /metrics: it tells how busy the shop is, how much it sold and how full its disk
 * is, so it is not public. Let in: a caller with METRICS_TOKEN as a bearer token, and a caller
 * on the private network — this machine (loopback) and fly.io's 6PN (fdaa::/16), from where
 * fly.io's own Prometheus scrapes. Everyone else is told the address does not exist.
 */
const PRIVATE_NETWORK = new BlockList();
PRIVATE_NETWORK.addSubnet("127.0.0.0", 8, "ipv4");
PRIVATE_NETWORK.addAddress("::1", "ipv6");
PRIVATE_NETWORK.addSubnet("fdaa::", 16, "ipv6");

export function isPrivateNetwork(address: string): boolean {
  const family = isIP(address);
  return family !== 0 && PRIVATE_NETWORK.check(address, family === 4 ? "ipv4" : "ipv6");
}

/**
 * The caller: the address the edge named (X-Shop-Client-Address: the proxy's word, or the socket's
 * peer without a proxy). On fly.io a request the proxy did not bring has no Fly-Client-IP at all,
 * and its caller is the socket's peer: fly.io's edge always writes Fly-Client-IP, so such a request
 * reached the machine over the private network, not from the internet; one whose Fly-Client-IP is
 * malformed or doubled came through some proxy and is nobody (never the peer, which is then the
 * proxy, on the private network). Behind other proxies (TRUST_PROXY=N) a request without their
 * word is not trusted to be anyone. With no proxy configured (`none`), a request that carries a
 * proxy's word anyway came through a proxy the shop was not told of (its peer would be that proxy,
 * on this machine): nobody either, and the server's log says to set TRUST_PROXY.
 */
function callerOf(request: Request, trustProxy: TrustProxy): string | null {
  const named = request.headers.get(CLIENT_ADDRESS_HEADER);
  if (trustProxy === "none")
    return FORWARDING_HEADERS.some((name) => request.headers.has(name)) ? null : named;
  if (named !== null || trustProxy !== "fly" || request.headers.has("fly-client-ip")) return named;
  return request.headers.get(PEER_ADDRESS_HEADER);
}

/** Compared in constant time: the time taken tells nothing of how much of a guess was right. */
function sameToken(given: string, expected: string): boolean {
  const digest = (value: string) => crypto.createHash("sha256").update(value).digest();
  return crypto.timingSafeEqual(digest(given), digest(expected));
}

export function mayReadMetrics(
  request: Request,
  { token, trustProxy }: { token: string | undefined; trustProxy: TrustProxy } = {
    token: env().METRICS_TOKEN,
    trustProxy: env().TRUST_PROXY,
  },
): boolean {
  const bearer = /^Bearer (\S+)$/i.exec(request.headers.get("Authorization") ?? "")?.[1];
  // A token is checked wherever it comes from: a wrong one is refused on the private network too.
  if (bearer !== undefined) return token !== undefined && sameToken(bearer, token);
  const caller = callerOf(request, trustProxy);
  return caller !== null && isPrivateNetwork(caller);
}
