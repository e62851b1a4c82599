import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { callerAddress, plainAddress } from "../../server/caller-address";

function request(remoteAddress: string, headers: Record<string, string> = {}): IncomingMessage {
  return { socket: { remoteAddress }, headers } as unknown as IncomingMessage;
}

describe("who is calling (server/caller-address.ts)", () => {
  it("with nothing in front (none) is the socket's peer, whatever headers the caller sends; IPv4 on a dual-stack socket is IPv4", () => {
    const forged = { "x-forwarded-for": "203.0.113.9", "fly-client-ip": "203.0.113.9" };
    expect(callerAddress(request("::ffff:127.0.0.2", forged), "none")).toBe("127.0.0.2");
    expect(callerAddress(request("2001:db8::5"), "none")).toBe("2001:db8::5");
  });

  it("behind fly.io is Fly-Client-IP, and behind N proxies the Nth X-Forwarded-For entry from the right", () => {
    expect(callerAddress(request("172.16.0.2", { "fly-client-ip": "198.51.100.7" }), "fly")).toBe(
      "198.51.100.7",
    );
    const chain = { "x-forwarded-for": "203.0.113.9, 198.51.100.7, 10.0.0.3" };
    expect(callerAddress(request("10.0.0.4", chain), 1)).toBe("10.0.0.3");
    expect(callerAddress(request("10.0.0.4", chain), 2)).toBe("198.51.100.7");
  });

  it("behind a proxy, a request without the proxy's word has no known address (never the proxy's own)", () => {
    expect(callerAddress(request("172.16.0.2"), "fly")).toBeNull();
    expect(callerAddress(request("10.0.0.4", { "x-forwarded-for": "198.51.100.7" }), 2)).toBeNull();
    expect(callerAddress(request("10.0.0.4", { "x-forwarded-for": "not-an-address" }), 1)).toBeNull();
    // A malformed or doubled Fly-Client-IP (Node joins a repeated header with ", ") is nobody, not the peer.
    for (const flyClientIp of ["not-an-address", "198.51.100.7, 203.0.113.9", ""])
      expect(callerAddress(request("172.16.0.2", { "fly-client-ip": flyClientIp }), "fly")).toBeNull();
  });

  it("spells an IPv4-mapped IPv6 address as the IPv4 address", () => {
    expect(plainAddress("::FFFF:192.0.2.1")).toBe("192.0.2.1");
    expect(plainAddress("2001:db8::1")).toBe("2001:db8::1");
  });
});
