import { eq } from "drizzle-orm";
import { now } from "../../core/clock.server";
import { db } from "../../db/client.server";
import { users } from "../../db/schema";
import { MINUTE_MS } from "~/lib/rules/tokyo-date";

/**
 * The lock every client of an account meets, its own devices included: wrong second-factor
 * codes (only someone with the password gets to enter one). Wrong passwords lock per device or
 * for the untrusted clients instead (password-runs.server.ts).
 */

type LockState = { failures: number; lockedUntil: Date | null };

/**
 * The second factor's limit: wrong codes count per account, across codes, resends and
 * logins, and the 5th locks the account (the password step included) for 15 minutes.
 */
export const SECOND_FACTOR_LOCK = { maxFailures: 5, lockMinutes: 15 } as const;

/**
 * Until when the account is locked for every client, its own devices included (by wrong
 * second-factor codes), or null. Wrong passwords lock per device or for untrusted clients:
 * see passwordRun.
 */
export function accountLockedUntil(userId: number, at: Date = now()): Date | null {
  const row = db().select({ lockedUntil: users.lockedUntil }).from(users).where(eq(users.id, userId)).get();
  return row?.lockedUntil && row.lockedUntil > at ? row.lockedUntil : null;
}

/**
 * Counts a wrong second-factor code on the account (atomically) and locks it at the limit.
 * An account already locked is not counted further: the caller answers with the lock.
 */
export function countSecondFactorFailure(userId: number, at: Date): LockState {
  return db().transaction(
    (tx) => {
      const row = tx
        .select({ secondFactorFailures: users.secondFactorFailures, lockedUntil: users.lockedUntil })
        .from(users)
        .where(eq(users.id, userId))
        .get();
      if (!row) return { failures: 0, lockedUntil: null };
      if (row.lockedUntil && row.lockedUntil > at)
        return { failures: row.secondFactorFailures, lockedUntil: row.lockedUntil };
      // A lock that has run out starts a fresh count, for codes as for passwords.
      const ranOut = row.lockedUntil !== null;
      const failures = (ranOut ? 0 : row.secondFactorFailures) + 1;
      const lockedUntil =
        failures >= SECOND_FACTOR_LOCK.maxFailures
          ? new Date(at.getTime() + SECOND_FACTOR_LOCK.lockMinutes * MINUTE_MS)
          : null;
      tx.update(users)
        .set({
          secondFactorFailures: failures,
          lockedUntil,
          ...(ranOut ? { failedLoginCount: 0 } : {}),
        })
        .where(eq(users.id, userId))
        .run();
      return { failures, lockedUntil };
    },
    { behavior: "immediate" },
  );
}

/** A completed second factor clears every count, like a successful login. */
export function clearAccountFailures(userId: number): void {
  db()
    .update(users)
    .set({ failedLoginCount: 0, secondFactorFailures: 0, lockedUntil: null })
    .where(eq(users.id, userId))
    .run();
}
