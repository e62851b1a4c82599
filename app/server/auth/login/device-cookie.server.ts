import crypto from "node:crypto";
import { createCookie } from "@remix-run/node";
import { desc, eq } from "drizzle-orm";
import { env } from "../../core/env.server";
import { db } from "../../db/client.server";
import { rateLimits } from "../../db/schema";
import { DAY_MS, SECOND_MS } from "~/lib/rules/tokyo-date";

/**
 * OWASP's device cookies (Authentication Cheat Sheet, "Device Cookies"; decision 0021): a browser
 * that has logged in to an account with its password gets a signed, HttpOnly cookie naming the
 * account and a random nonce. Wrong passwords sent with it count against that nonce (this device)
 * only; wrong passwords sent without it count against the account's untrusted clients, whose lock
 * does not stop the device. So a stranger who knows an address can lock out strangers, not her.
 *
 * Signed with the session secrets (rotation included), so nobody can make one without having
 * logged in; the account and the nonce are plain to whoever holds the cookie, which is the owner.
 * The account is named by its id, which is never given to another account (AUTOINCREMENT), and
 * not by its e-mail, which the cookie would then carry in the clear.
 */

/** A browser shared by a household keeps a device entry for each of its last few accounts. */
const ACCOUNTS_PER_DEVICE = 5;
/**
 * Kept a year: an owner back after months is still recognised. A device lost is no worse than
 * today (its entry only lifts the strangers' lock, never the password).
 */
const DEVICE_COOKIE_MAX_AGE_SECONDS = (365 * DAY_MS) / SECOND_MS;

type DeviceEntry = { account: number; nonce: string };

let cookie: ReturnType<typeof createDeviceCookie> | undefined;

function createDeviceCookie() {
  const config = env();
  return createCookie(config.SECURE_COOKIES ? "__Host-shop_device" : "shop_device", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: config.SECURE_COOKIES,
    secrets: config.SESSION_SECRETS,
    maxAge: DEVICE_COOKIE_MAX_AGE_SECONDS,
  });
}

function deviceCookie() {
  cookie ??= createDeviceCookie();
  return cookie;
}

async function deviceEntries(request: Request): Promise<DeviceEntry[]> {
  // An unsigned, forged or malformed cookie parses as null (or as something else): no entries.
  const value: unknown = await deviceCookie().parse(request.headers.get("Cookie"));
  if (!Array.isArray(value)) return [];
  return value.filter(
    (entry): entry is DeviceEntry =>
      typeof entry === "object" &&
      entry !== null &&
      Number.isInteger((entry as DeviceEntry).account) &&
      typeof (entry as DeviceEntry).nonce === "string",
  );
}

/** This browser's device nonce for the account when it logged in to it before, else null (an untrusted client). */
export async function trustedDevice(request: Request, account: number): Promise<string | null> {
  return (await deviceEntries(request)).find((entry) => entry.account === account)?.nonce ?? null;
}

/**
 * The Set-Cookie header after a right password: a fresh nonce for the account (its run of wrong
 * passwords on this device starts again), the browser's other accounts kept.
 */
export async function deviceCookieAfterLogin(request: Request, account: number): Promise<string> {
  const others = (await deviceEntries(request)).filter((entry) => entry.account !== account);
  const entries = [{ account, nonce: crypto.randomBytes(16).toString("base64url") }, ...others];
  return deviceCookie().serialize(entries.slice(0, ACCOUNTS_PER_DEVICE));
}

/** A device's run of wrong passwords: how many, and the latest. */
export type DeviceRun = { failures: number; lastFailureAt: Date | null };

/**
 * A device's run lives in the rate-limit table under its nonce, one row whose window_start is
 * the run's latest failure (the hourly clean-up deletes it two days on; a run is over after 15
 * quiet minutes). No new table: a device that never fails writes nothing.
 */
const runKey = (nonce: string) => `login-device:${nonce}`;

function latestRun(database: Pick<ReturnType<typeof db>, "select">, nonce: string): DeviceRun {
  const row = database
    .select({ count: rateLimits.count, windowStart: rateLimits.windowStart })
    .from(rateLimits)
    .where(eq(rateLimits.key, runKey(nonce)))
    .orderBy(desc(rateLimits.windowStart))
    .limit(1)
    .get();
  return row
    ? { failures: row.count, lastFailureAt: new Date(row.windowStart) }
    : { failures: 0, lastFailureAt: null };
}

/** The device's run as last written (the caller decides whether it is still current). */
export function deviceFailureRun(nonce: string): DeviceRun {
  return latestRun(db(), nonce);
}

/**
 * Counts a wrong password on the device (atomically, so two at once both count): one more in
 * its run, or the first of a new run when `quietMs` have passed since its latest failure.
 */
export function countDeviceFailure(nonce: string, at: Date, quietMs: number): DeviceRun {
  return db().transaction(
    (tx) => {
      const run = latestRun(tx, nonce);
      const current = run.lastFailureAt && at.getTime() < run.lastFailureAt.getTime() + quietMs;
      const after = { failures: (current ? run.failures : 0) + 1, lastFailureAt: at };
      tx.delete(rateLimits)
        .where(eq(rateLimits.key, runKey(nonce)))
        .run();
      tx.insert(rateLimits)
        .values({ key: runKey(nonce), windowStart: at.getTime(), count: after.failures })
        .run();
      return after;
    },
    { behavior: "immediate" },
  );
}

/** A right password from the device ends its run. */
export function clearDeviceFailureRun(nonce: string): void {
  db()
    .delete(rateLimits)
    .where(eq(rateLimits.key, runKey(nonce)))
    .run();
}
