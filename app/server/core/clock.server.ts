import { AsyncLocalStorage } from "node:async_hooks";
import { DAY_MS } from "~/lib/rules/tokyo-date";

/**
 * The current time, injectable so tests can move past expiries and lockouts
 * without waiting. Production always uses the real clock.
 */
let override: (() => number) | null = null;

/**
 * A request's own clock, ahead by an offset in ms (test hooks only, `requestClockOffset`): the
 * browser tests share one server and run side by side, so moving the server's clock for one (an
 * early-bird price ending) must not move it for the others. Null unless test hooks are on, so a
 * production request pays nothing for it.
 */
let requestClock: AsyncLocalStorage<number> | null = null;

export function now(): Date {
  if (override) return new Date(override());
  const offset = requestClock?.getStore();
  return new Date(offset ? Date.now() + offset : Date.now());
}

export function setClock(next: (() => number) | null): void {
  override = next;
}

/** The cookie a browser test sets to run its requests ahead of the clock (ms, at most a year). */
export const TEST_CLOCK_COOKIE = "shop-test-clock-offset";
const MAX_TEST_OFFSET_MS = 366 * DAY_MS;

/** Turns on requests' own clocks (with ENABLE_TEST_HOOKS only; server-settings refuses it on https). */
export function enableRequestClocks(): void {
  requestClock ??= new AsyncLocalStorage<number>();
}

/** Runs the request's handling on its own clock when it carries the test cookie and clocks are on. */
export function withRequestClock<T>(cookieHeader: string | null, run: () => T): T {
  if (!requestClock || !cookieHeader) return run();
  const match = new RegExp(`(?:^|;\\s*)${TEST_CLOCK_COOKIE}=(-?\\d{1,15})(?:;|$)`).exec(cookieHeader);
  const offset = match ? Number(match[1]) : 0;
  if (!offset || Math.abs(offset) > MAX_TEST_OFFSET_MS) return run();
  return requestClock.run(offset, run);
}
