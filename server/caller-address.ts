import { isIP } from "node:net";
import type { IncomingMessage } from "node:http";
import type { TrustProxy } from "../app/server/core/env.server";
import { FORWARDING_HEADERS } from "../app/server/http/client-address.server";

/** `::ffff:1.2.3.4` (an IPv4 caller on a dual-stack socket) is `1.2.3.4`: one caller, one spelling. */
export function plainAddress(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  return mapped ? mapped[1]! : address;
}

/**
 * Who is calling: the socket's peer when nothing stands in front (`none`), else what the trusted
 * proxy says — fly.io's edge sets Fly-Client-IP itself; N proxies each append the address they
 * saw to X-Forwarded-For, so the caller is the Nth entry from the right (entries further left are
 * whatever the caller chose to send). Behind a proxy the socket's peer is the proxy, never the
 * caller: a request without the proxy's word (fewer entries than proxies, no Fly-Client-IP: it did
 * not come through them all) has no known address, and per-address limits pass it by rather than
 * pool everyone into the proxy's one bucket.
 */
export function callerAddress(request: IncomingMessage, trust: TrustProxy): string | null {
  let address: string | undefined;
  if (trust === "none") {
    address = request.socket.remoteAddress;
  } else if (trust === "fly") {
    address = headerValue(request, "fly-client-ip")?.trim();
  } else {
    const entries = (headerValue(request, "x-forwarded-for") ?? "").split(",");
    address = entries.length >= trust ? entries[entries.length - trust]?.trim() : undefined;
  }
  return address && isIP(address) ? plainAddress(address) : null;
}

function headerValue(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(",") : value;
}

/** The first forwarding header a request carries, if any. */
export function forwardingHeaderOf(request: IncomingMessage): string | undefined {
  return FORWARDING_HEADERS.find((name) => request.headers[name] !== undefined);
}
