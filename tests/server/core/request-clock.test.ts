import { describe, expect, it, vi } from "vitest";

/*
 * A request's own clock (core/clock.server.ts): browser tests share one server, so a spec moves
 * only its own requests' time, by a cookie, and only where test hooks turned request clocks on.
 */

async function freshClock() {
  vi.resetModules();
  return import("~/server/core/clock.server");
}

const cookieOf = (offset: string) => `session=abc; shop-test-clock-offset=${offset}; other=1`;

describe("a request's own clock", () => {
  it("is ignored unless request clocks are on (a production server never reads the cookie)", async () => {
    const clock = await freshClock();
    const before = Date.now();
    const seen = clock.withRequestClock(cookieOf("86400000"), () => clock.now().getTime());
    expect(seen).toBeLessThan(before + 60_000);
  });

  it("runs the request ahead by the cookie's offset once on, and only inside that request", async () => {
    const clock = await freshClock();
    clock.enableRequestClocks();
    const day = 86_400_000;
    const inside = await clock.withRequestClock(cookieOf(String(day)), async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return clock.now().getTime();
    });
    expect(inside - Date.now()).toBeGreaterThan(day - 60_000);
    expect(clock.now().getTime() - Date.now()).toBeLessThan(1_000);
    // No cookie, a malformed one or one past a year: the real clock.
    for (const header of [null, "session=abc", cookieOf("soon"), cookieOf(String(400 * day))])
      expect(clock.withRequestClock(header, () => clock.now().getTime()) - Date.now()).toBeLessThan(1_000);
  });
});
