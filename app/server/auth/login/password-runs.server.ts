import { eq } from "drizzle-orm";
import { db } from "../../db/client.server";
import { users } from "../../db/schema";
import { originLimitKey } from "../../http/rate-limit.server";
import {
  clearDeviceFailureRun,
  countDeviceFailure,
  deviceFailureRun,
  trustedDevice,
} from "./device-cookie.server";
import type { LoginPolicy } from "./login-policies.server";
import { MINUTE_MS } from "~/lib/rules/tokyo-date";

/**
 * Runs of wrong passwords, as both the login and the password asked again count them (see the
 * comment at the top of login.server.ts): a trusted device's own run, else the account's run
 * of untrusted clients. 15 quiet minutes after the latest failure start a fresh run.
 */

/** A run of failed passwords: how many, and the latest. */
export type FailureRun = { failures: number; lastFailureAt: Date | null };

/** The run as it stands at `at`: after 15 quiet minutes it is over. */
export function currentRun(run: FailureRun, lockMinutes: number, at: Date): FailureRun {
  if (!run.lastFailureAt || at.getTime() >= run.lastFailureAt.getTime() + lockMinutes * MINUTE_MS)
    return { failures: 0, lastFailureAt: null };
  return run;
}

/** Until when a run locks under a policy, or null: at maxFailures, for lockMinutes after the latest failure. */
export function runLockedUntil(run: FailureRun, policy: LoginPolicy, at: Date): Date | null {
  if (!run.lastFailureAt || run.failures < policy.maxFailures) return null;
  const until = new Date(run.lastFailureAt.getTime() + policy.lockMinutes * MINUTE_MS);
  return until > at ? until : null;
}

/**
 * Counts an untrusted client's failure on the account (atomically). The run it makes is the
 * lock of the untrusted clients (read at the login with runLockedUntil); it is not written to
 * lockedUntil, which is the lock every client meets (wrong second-factor codes: only someone
 * with the password gets to enter one), so the account's own devices and its second factor
 * carry on while strangers are locked out.
 */
function countAccountFailure(userId: number, own: LoginPolicy, at: Date): FailureRun {
  return db().transaction(
    (tx) => {
      const row = tx
        .select({ failedLoginCount: users.failedLoginCount, lastFailedLoginAt: users.lastFailedLoginAt })
        .from(users)
        .where(eq(users.id, userId))
        .get();
      const run = currentRun(
        { failures: row?.failedLoginCount ?? 0, lastFailureAt: row?.lastFailedLoginAt ?? null },
        own.lockMinutes,
        at,
      );
      const after = { failures: run.failures + 1, lastFailureAt: at };
      tx.update(users)
        .set({ failedLoginCount: after.failures, lastFailedLoginAt: at })
        .where(eq(users.id, userId))
        .run();
      return after;
    },
    { behavior: "immediate" },
  );
}

/**
 * Whose turn a password check waits in (password.server.ts): the client's address, an IPv6 /64,
 * so a flood from one address queues behind itself only. Requests that did not come through
 * the server's edge (no address) share one turn.
 */
export function passwordCheckCaller(request: Request): string {
  return originLimitKey(request, "password-check") ?? "password-check:unknown";
}

/** Where an attempt's wrong passwords count: a trusted device's own run, or the untrusted clients' run on the account. */
export type PasswordCounter = { device: string } | { device: null; userId: number };

/** The run an attempt on an account counts in, as it stands at `at` (see the comment at the top). */
export async function passwordRun(
  request: Request,
  account: { id: number; failedLoginCount: number; lastFailedLoginAt: Date | null },
  lockMinutes: number,
  at: Date,
): Promise<{ counter: PasswordCounter; run: FailureRun }> {
  const device = await trustedDevice(request, account.id);
  const run = device
    ? deviceFailureRun(device)
    : { failures: account.failedLoginCount, lastFailureAt: account.lastFailedLoginAt };
  return {
    counter: device ? { device } : { device: null, userId: account.id },
    run: currentRun(run, lockMinutes, at),
  };
}

/** Counts a wrong password where the attempt's counter says. */
export function countPasswordFailure(counter: PasswordCounter, own: LoginPolicy, at: Date): FailureRun {
  return counter.device !== null
    ? countDeviceFailure(counter.device, at, own.lockMinutes * MINUTE_MS)
    : countAccountFailure(counter.userId, own, at);
}

/** A right password ends the run it was tried in (a device's, or the untrusted clients'). */
export function endPasswordRun(counter: PasswordCounter): void {
  if (counter.device !== null) clearDeviceFailureRun(counter.device);
  else
    db()
      .update(users)
      .set({ failedLoginCount: 0, lastFailedLoginAt: null })
      .where(eq(users.id, counter.userId))
      .run();
}
