import { describe, expect, it, vi } from "vitest";
import { CallerGate } from "../../server/caller-gate";

/** A request as the edge sees it: its end is an abort (the answer went, or its connection closed). */
function request() {
  const controller = new AbortController();
  return { ended: controller.signal, end: () => controller.abort() };
}

const CALLER = "192.0.2.1";

describe("the server shared between callers (server/caller-gate.ts)", () => {
  it("lets a caller have a few requests inside at once, makes the next wait in its own line, and refuses past that", async () => {
    const gate = new CallerGate({ inFlight: 2, maxWaiting: 1 });
    const [first, second, third, fourth, other] = [request(), request(), request(), request(), request()];
    expect(await gate.enter(CALLER, first.ended)).toBe("admitted");
    expect(await gate.enter(CALLER, second.ended)).toBe("admitted");
    let thirdIn = false;
    const thirdOutcome = gate.enter(CALLER, third.ended).then((outcome) => {
      thirdIn = true;
      return outcome;
    });
    // The line is full: a fourth is refused at once.
    expect(await gate.enter(CALLER, request().ended)).toBe("refused");
    // Another caller is not in that line at all.
    expect(await gate.enter("2001:db8:1:2::/64", other.ended)).toBe("admitted");
    await Promise.resolve();
    expect(thirdIn).toBe(false);
    first.end();
    expect(await thirdOutcome).toBe("admitted");
    // Ending twice gives nothing away: two are still inside, so the next one waits again.
    first.end();
    let fourthIn = false;
    const fourthOutcome = gate.enter(CALLER, fourth.ended).then((outcome) => {
      fourthIn = true;
      return outcome;
    });
    await Promise.resolve();
    expect(fourthIn).toBe(false);
    second.end();
    expect(await fourthOutcome).toBe("admitted");
    third.end();
    fourth.end();
    other.end();
    expect(gate.callers).toBe(0);
    expect(gate.reading()).toMatchObject({ refused: 1, takenBack: 0, waiting: 0 });
  });

  it("caller gate leak: a request whose connection closes while it waits leaves the line at once and never holds a turn", async () => {
    const gate = new CallerGate({ inFlight: 8, maxWaiting: 32 });
    // Three times: eight requests inside that never finish on their own, 32 waiting behind them
    // whose callers give up; then the eight are dropped too.
    for (let round = 0; round < 3; round++) {
      const inside = Array.from({ length: 8 }, request);
      for (const one of inside) expect(await gate.enter(CALLER, one.ended)).toBe("admitted");
      const waiting = Array.from({ length: 32 }, request);
      const outcomes = waiting.map((one) => gate.enter(CALLER, one.ended));
      for (const one of waiting) one.end();
      expect(await Promise.all(outcomes)).toEqual(Array(32).fill("gone"));
      for (const one of inside) one.end();
    }
    expect(gate.callers).toBe(0);
    // The address is served again, a whole line's worth.
    const next = Array.from({ length: 8 }, request);
    for (const one of next) expect(await gate.enter(CALLER, one.ended)).toBe("admitted");
    // A request that had already ended when it reached the gate never joins.
    expect(await gate.enter(CALLER, AbortSignal.abort())).toBe("gone");
    for (const one of next) one.end();
    expect(gate.callers).toBe(0);
  });

  it("takes back a turn held longer than any request's work, says so, and lets the line move on", async () => {
    vi.useFakeTimers();
    try {
      const takenBack: string[] = [];
      const gate = new CallerGate({
        inFlight: 1,
        turnMaxMs: 60_000,
        onTakenBack: (caller, heldMs, what) => takenBack.push(`${caller} ${heldMs >= 60_000} ${what}`),
      });
      // A turn whose end never comes (a bug of the kind above, or a request that never ends).
      expect(await gate.enter(CALLER, request().ended, "GET /stuck")).toBe("admitted");
      const waiter = request();
      const waiting = gate.enter(CALLER, waiter.ended, "GET /");
      vi.advanceTimersByTime(59_000);
      expect(gate.reading().waiting).toBe(1);
      vi.advanceTimersByTime(1_000);
      expect(await waiting).toBe("admitted");
      expect(takenBack).toEqual([`${CALLER} true GET /stuck`]);
      const reading = gate.reading();
      expect(reading.takenBack).toBe(1);
      expect(reading.longestWaitMs).toBeGreaterThanOrEqual(60_000);
      // The longest wait is since the last reading.
      expect(gate.reading().longestWaitMs).toBe(0);
      waiter.end();
      expect(gate.callers).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
