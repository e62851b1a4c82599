import { isIP } from "node:net";
import type { IncomingMessage } from "node:http";
import type { TrustProxy } from "../app/server/core/env.server";

/** `::ffff:1.2.3.4` (an IPv4 caller on a dual-stack socket) is `1.2.3.4`: one caller, one spelling. */
export function plainAddress(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  return mapped ? mapped[1]! : address;
}

/**
 * Who is calling: the socket's peer when nothing stands in front (`none`), else what the trusted
 * proxy says — fly.io's edge sets Fly-Client-IP itself; N proxies each append the address they
 * saw to X-Forwarded-For, so the caller is the Nth entry from the right (entries further left are
 * whatever the caller chose to send). A request that did not come through the proxy (no header, or
 * fewer entries than proxies: a health check, the private network) is its socket's peer.
 */
export function callerAddress(request: IncomingMessage, trust: TrustProxy): string | null {
  let told: string | undefined;
  if (trust === "fly") {
    told = headerValue(request, "fly-client-ip");
  } else if (typeof trust === "number") {
    const entries = (headerValue(request, "x-forwarded-for") ?? "")
      .split(",")
      .filter((entry) => entry.trim());
    told = entries.length >= trust ? entries[entries.length - trust] : undefined;
  }
  const address = told?.trim() || request.socket.remoteAddress;
  return address && isIP(address) ? plainAddress(address) : null;
}

function headerValue(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(",") : value;
}
