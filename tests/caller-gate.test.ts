import { describe, expect, it } from "vitest";
import { CallerGate } from "../server/caller-gate";

describe("the server shared between callers (server/caller-gate.ts)", () => {
  it("lets a caller have a few requests inside at once, makes the next wait in its own line, and refuses past that", async () => {
    const gate = new CallerGate(2, 1);
    const first = await gate.enter("192.0.2.1");
    const second = await gate.enter("192.0.2.1");
    let thirdIn = false;
    const third = gate.enter("192.0.2.1").then((leave) => {
      thirdIn = true;
      return leave;
    });
    // The line is full: a fourth is refused at once.
    expect(await gate.enter("192.0.2.1")).toBeNull();
    // Another caller is not in that line at all.
    const other = await gate.enter("2001:db8:1:2::/64");
    expect(other).toBeTypeOf("function");
    await Promise.resolve();
    expect(thirdIn).toBe(false);
    first!();
    const leaveThird = await third;
    expect(thirdIn).toBe(true);
    // Leaving twice gives nothing away: two are still inside, so the next one waits again.
    first!();
    let fourthIn = false;
    const fourth = gate.enter("192.0.2.1").then((leave) => {
      fourthIn = true;
      return leave;
    });
    await Promise.resolve();
    expect(fourthIn).toBe(false);
    second!();
    const leaveFourth = await fourth;
    leaveThird!();
    leaveFourth!();
    other!();
    expect(gate.callers).toBe(0);
  });
});
