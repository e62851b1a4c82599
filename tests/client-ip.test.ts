import { afterEach, describe, expect, it } from "vitest";
import { clientIp } from "~/server/http/rate-limit.server";

const request = (headers: Record<string, string>) => new Request("http://shop.test/login", { headers });

describe("the client's address for per-address limits", () => {
  afterEach(() => {
    delete process.env.FLY_APP_NAME;
  });

  it("takes the entry the proxy added, not the ones a client can invent", () => {
    expect(clientIp(request({ "X-Forwarded-For": "203.0.113.5" }))).toBe("203.0.113.5");
    // A client rotating a fake first entry still lands in its real address's bucket.
    expect(clientIp(request({ "X-Forwarded-For": "1.2.3.4, 203.0.113.5" }))).toBe("203.0.113.5");
    expect(clientIp(request({ "X-Forwarded-For": "9.9.9.9, 203.0.113.5" }))).toBe("203.0.113.5");
    expect(clientIp(request({}))).toBe("unknown");
  });

  it("believes Fly-Client-IP only on fly.io, where the edge sets it", () => {
    expect(clientIp(request({ "Fly-Client-IP": "198.51.100.1", "X-Forwarded-For": "203.0.113.5" }))).toBe(
      "203.0.113.5",
    );
    process.env.FLY_APP_NAME = "contest-video-shop";
    expect(clientIp(request({ "Fly-Client-IP": "198.51.100.1", "X-Forwarded-For": "203.0.113.5" }))).toBe(
      "198.51.100.1",
    );
  });
});
