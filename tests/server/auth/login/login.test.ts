import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { setClock } from "~/server/core/clock.server";
import { db } from "~/server/db/client.server";
import { loginEvents } from "~/server/db/schema";
import { riskScore } from "~/server/auth/login/login-events.server";
import { attemptLogin, logInCustomer } from "~/server/auth/login/login.server";
import {
  ADMIN_LOGIN_POLICY,
  CUSTOMER_LOGIN_POLICY,
  LOGIN_MESSAGES,
  type LoginPolicy,
  remainingAttemptsWarning,
} from "~/server/auth/login/login-policies.server";
import { getCurrentUser } from "~/server/auth/users.server";
import { createUser, loginPost, newSession, requestFrom, userByEmail } from "../../../helpers/accounts";
import { checkPassword } from "~/server/auth/login/password-step.server";
import type { ShopSession } from "~/server/http/session.server";

const T0 = Date.UTC(2025, 5, 1, 3, 0, 0);
const MINUTE = 60_000;

/** A short policy, so comparing accounts with unknown addresses costs few scrypt hashes. */
const SHORT: LoginPolicy = {
  ...CUSTOMER_LOGIN_POLICY,
  maxFailures: 3,
  warnAtRemaining: 2,
  finalWarningAtRemaining: 1,
};

function eventsFor(email: string) {
  return db().select().from(loginEvents).where(eq(loginEvents.email, email)).orderBy(loginEvents.id).all();
}

describe("customer login lockout", () => {
  it("after 3 failures a general caution, from 5 left the attempts counted down; the admin's warnings as before", () => {
    const shown = (failures: number, policy: LoginPolicy) =>
      remainingAttemptsWarning(policy.maxFailures - failures, policy);
    expect([1, 2].map((n) => shown(n, CUSTOMER_LOGIN_POLICY))).toEqual([null, null]);
    expect([3, 4].map((n) => shown(n, CUSTOMER_LOGIN_POLICY))).toEqual([
      "ログインに複数回失敗しています。メールアドレスとパスワードをご確認ください。パスワードをお忘れの場合は「パスワードをお忘れの方」から再設定できます。",
      LOGIN_MESSAGES.caution,
    ]);
    expect(shown(5, CUSTOMER_LOGIN_POLICY)).toBe("あと5回失敗すると、アカウントが15分間ロックされます。");
    expect(shown(10, CUSTOMER_LOGIN_POLICY)).toBeNull();
    expect([1, 2, 3].map((n) => shown(n, ADMIN_LOGIN_POLICY))).toEqual([
      null,
      "あと3回失敗すると、アカウントが15分間ロックされます。",
      expect.stringContaining("あと2回"),
    ]);
  });

  it("counts failures, warns from 5 left, locks for 15 minutes at the 10th, and unlocks when the time has passed", async () => {
    setClock(() => T0);
    const user = await createUser("alice@example.jp", "Secret-Pass1");
    const request = () => requestFrom("198.51.100.1");

    const answers = [];
    for (let i = 1; i <= 9; i++) {
      const result = await attemptLogin(
        request(),
        { email: "alice@example.jp", password: "wrong-password" },
        CUSTOMER_LOGIN_POLICY,
      );
      if (result.ok || result.reason !== "invalid")
        throw new Error(`attempt ${i}: ${JSON.stringify(result)}`);
      expect(result).toMatchObject({
        status: 401,
        message: LOGIN_MESSAGES.invalid,
        remainingAttempts: 10 - i,
      });
      answers.push(result.warning);
    }
    expect(answers.slice(0, 2)).toEqual([null, null]);
    expect(answers.slice(2, 4)).toEqual([LOGIN_MESSAGES.caution, LOGIN_MESSAGES.caution]);
    expect(answers[4]).toBe("あと5回失敗すると、アカウントが15分間ロックされます。");
    expect(answers[6]).not.toContain("ロックされますので");
    expect(answers[7]).toContain("あと2回");
    expect(answers[7]).toContain("まもなくロックされますので");
    expect(answers[8]).toContain("次に失敗するとロックされます");
    expect(userByEmail("alice@example.jp")?.failedLoginCount).toBe(9);

    const tenth = await attemptLogin(
      request(),
      { email: "alice@example.jp", password: "wrong-password" },
      CUSTOMER_LOGIN_POLICY,
    );
    expect(tenth).toMatchObject({
      ok: false,
      reason: "locked",
      status: 423,
      lockedUntil: new Date(T0 + 15 * MINUTE),
    });
    expect(tenth.ok ? "" : tenth.message).toContain("2025/06/01 12:15");
    // The lock of the clients that never logged in to her (the account's run), not lockedUntil:
    // that one is the lock every client meets, her own devices included (decision 0021).
    expect(userByEmail("alice@example.jp")).toMatchObject({ failedLoginCount: 10, lockedUntil: null });

    // While locked even the right password is refused, and no hash is computed.
    setClock(() => T0 + 14 * MINUTE);
    const duringLock = await attemptLogin(
      request(),
      { email: "alice@example.jp", password: "Secret-Pass1" },
      CUSTOMER_LOGIN_POLICY,
    );
    expect(duringLock).toMatchObject({ ok: false, reason: "locked", status: 423 });

    setClock(() => T0 + 15 * MINUTE + 1000);
    const after = await attemptLogin(
      request(),
      { email: "alice@example.jp", password: "Secret-Pass1" },
      CUSTOMER_LOGIN_POLICY,
    );
    expect(after).toMatchObject({ ok: true, requiresSecondFactor: false, user: { id: user.id } });
    expect(userByEmail("alice@example.jp")).toMatchObject({ failedLoginCount: 0, lockedUntil: null });

    const outcomes = eventsFor("alice@example.jp").map((event) => event.outcome);
    expect(outcomes).toEqual([...Array(10).fill("failure"), "locked", "success"]);
  });

  it("a lock that has run out starts a fresh count", async () => {
    setClock(() => T0);
    await createUser("carol@example.jp", "Secret-Pass1");
    for (let i = 0; i < 3; i++)
      await attemptLogin(requestFrom("198.51.100.3"), { email: "carol@example.jp", password: "nope" }, SHORT);
    expect(
      await attemptLogin(requestFrom("198.51.100.3"), { email: "carol@example.jp", password: "nope" }, SHORT),
    ).toMatchObject({ ok: false, reason: "locked", lockedUntil: new Date(T0 + 15 * MINUTE) });
    setClock(() => T0 + 16 * MINUTE);
    const next = await attemptLogin(
      requestFrom("198.51.100.3"),
      { email: "carol@example.jp", password: "nope" },
      SHORT,
    );
    expect(next).toMatchObject({ ok: false, reason: "invalid", remainingAttempts: 2 });
  });

  it("an address with no account gets exactly the answers an account gets, lock included", async () => {
    setClock(() => T0);
    await createUser("dave@example.jp", "Secret-Pass1");
    const run = async (email: string) => {
      const results = [];
      for (let i = 0; i < 4; i++) {
        const result = await attemptLogin(requestFrom("198.51.100.4"), { email, password: "wrong" }, SHORT);
        results.push(
          result.ok
            ? result
            : { ...result, lockedUntil: "lockedUntil" in result ? result.lockedUntil.getTime() : null },
        );
      }
      return results;
    };
    const known = await run("dave@example.jp");
    const unknown = await run("nobody@example.jp");
    expect(unknown).toEqual(known);
    expect(known.map((r) => (r.ok ? "ok" : r.reason))).toEqual(["invalid", "invalid", "locked", "locked"]);
    expect(known[1]).toMatchObject({ remainingAttempts: 1 });

    setClock(() => T0 + 15 * MINUTE);
    const knownAfter = await attemptLogin(
      requestFrom("198.51.100.4"),
      { email: "dave@example.jp", password: "wrong" },
      SHORT,
    );
    const unknownAfter = await attemptLogin(
      requestFrom("198.51.100.4"),
      { email: "nobody@example.jp", password: "wrong" },
      SHORT,
    );
    expect(unknownAfter).toEqual(knownAfter);
    expect(knownAfter).toMatchObject({ reason: "invalid", remainingAttempts: 2 });
  });

  it("limits attempts per client address, whatever the e-mails", async () => {
    setClock(() => T0);
    const policy: LoginPolicy = { ...CUSTOMER_LOGIN_POLICY, perIp: { limit: 3, windowMs: 15 * MINUTE } };
    for (let i = 0; i < 3; i++) {
      const result = await attemptLogin(
        requestFrom("203.0.113.9"),
        { email: `spray${i}@example.jp`, password: "Password1" },
        policy,
      );
      expect(result).toMatchObject({ ok: false, reason: "invalid" });
    }
    const blocked = await attemptLogin(
      requestFrom("203.0.113.9"),
      { email: "spray9@example.jp", password: "Password1" },
      policy,
    );
    expect(blocked).toMatchObject({
      ok: false,
      reason: "blocked",
      status: 429,
      message: LOGIN_MESSAGES.blocked,
    });
    expect(blocked.ok || blocked.reason !== "blocked" ? 0 : blocked.retryAfterSeconds).toBeGreaterThan(0);
    expect(eventsFor("spray9@example.jp").map((e) => e.outcome)).toEqual(["blocked"]);

    // Another address is not affected; the blocked one may try again in the next window.
    expect(
      await attemptLogin(
        requestFrom("203.0.113.10"),
        { email: "spray9@example.jp", password: "Password1" },
        policy,
      ),
    ).toMatchObject({ reason: "invalid" });
    setClock(() => T0 + 15 * MINUTE);
    expect(
      await attemptLogin(
        requestFrom("203.0.113.9"),
        { email: "spray9@example.jp", password: "Password1" },
        policy,
      ),
    ).toMatchObject({ reason: "invalid" });
  });
});

describe("login records", () => {
  it("records every attempt with address, user agent, user and a risk score", async () => {
    setClock(() => T0);
    const user = await createUser("erin@example.jp", "Secret-Pass1");
    await attemptLogin(
      requestFrom("192.0.2.1"),
      { email: "Erin@Example.jp ", password: "Secret-Pass1" },
      CUSTOMER_LOGIN_POLICY,
    );
    await attemptLogin(
      requestFrom("192.0.2.1"),
      { email: "erin@example.jp", password: "wrong" },
      CUSTOMER_LOGIN_POLICY,
    );
    await attemptLogin(
      requestFrom("192.0.2.1"),
      { email: "erin@example.jp", password: "wrong" },
      CUSTOMER_LOGIN_POLICY,
    );
    await attemptLogin(
      requestFrom("192.0.2.1"),
      { email: "erin@example.jp", password: "Secret-Pass1" },
      CUSTOMER_LOGIN_POLICY,
    );
    const events = eventsFor("erin@example.jp");
    expect(events.map((e) => [e.kind, e.outcome, e.userId, e.ip, e.userAgent])).toEqual([
      ["customer", "success", user.id, "192.0.2.1", "Mozilla/5.0 (vitest)"],
      ["customer", "failure", user.id, "192.0.2.1", "Mozilla/5.0 (vitest)"],
      ["customer", "failure", user.id, "192.0.2.1", "Mozilla/5.0 (vitest)"],
      ["customer", "success", user.id, "192.0.2.1", "Mozilla/5.0 (vitest)"],
    ]);
    // First success: a new address for the account (20). Then streaks of 1 and 2 (5 each); the address is known by then.
    expect(events.map((e) => e.riskScore)).toEqual([20, 5, 10, 0]);
  });

  it("scores one address trying many e-mails", async () => {
    setClock(() => T0);
    for (let i = 0; i < 3; i++)
      await attemptLogin(
        requestFrom("192.0.2.50"),
        { email: `many${i}@example.jp`, password: "x" },
        CUSTOMER_LOGIN_POLICY,
      );
    const scores = db()
      .select({ email: loginEvents.email, riskScore: loginEvents.riskScore })
      .from(loginEvents)
      .where(and(eq(loginEvents.ip, "192.0.2.50")))
      .orderBy(loginEvents.id)
      .all();
    // Each a streak of 1 (5); the third e-mail from one address in the hour adds 10.
    expect(scores.map((s) => s.riskScore)).toEqual([5, 5, 15]);
  });

  it("riskScore stays within 0–100", () => {
    expect(riskScore({ failureStreak: 0, newIpForAccount: false, distinctEmailsFromIp: 1 })).toBe(0);
    expect(riskScore({ failureStreak: 3, newIpForAccount: true, distinctEmailsFromIp: 3 })).toBe(45);
    expect(riskScore({ failureStreak: 50, newIpForAccount: true, distinctEmailsFromIp: 40 })).toBe(100);
  });
});

/** The customer login as /login's action runs it: the password step, then the login. */
async function customerLogin(ip: string, session: ShopSession, fields: Record<string, string | undefined>) {
  const step = await checkPassword(loginPost(ip, fields), "customer");
  if (!step.checked) throw new Error("the form did not validate");
  return logInCustomer(session, step.values, step.result);
}

describe("logInCustomer", () => {
  it("logs a customer in and goes back only to a page of this site", async () => {
    setClock(() => T0);
    const user = await createUser("frank@example.jp", "Secret-Pass1");
    const session = await newSession();
    const result = await customerLogin("192.0.2.60", session, {
      email: "frank@example.jp",
      password: "Secret-Pass1",
      redirectTo: "//evil.com",
    });
    expect(result).toEqual({ ok: true, redirectTo: "/", secondFactor: false });
    expect(await getCurrentUser(session)).toMatchObject({ id: user.id });
    expect(userByEmail("frank@example.jp")?.lastLoginAt).toEqual(new Date(T0));

    const again = await newSession();
    expect(
      await customerLogin("192.0.2.60", again, {
        email: "frank@example.jp",
        password: "Secret-Pass1",
        redirectTo: "/purchase-history?page=2",
      }),
    ).toMatchObject({
      redirectTo: "/purchase-history?page=2",
    });
  });

  it("hands admins and users with an authenticator to the second-factor page without logging them in", async () => {
    setClock(() => T0);
    const admin = await createUser("owner@example.jp", "Admin-Pass-1234", { isAdmin: true });
    const session = await newSession();
    const result = await customerLogin("192.0.2.70", session, {
      email: "owner@example.jp",
      password: "Admin-Pass-1234",
      redirectTo: undefined,
    });
    expect(result).toEqual({ ok: true, redirectTo: "/admin-2fa-verify", secondFactor: true });
    expect(session.get("userId")).toBeUndefined();
    expect(session.get("pendingLogin")).toEqual({ userId: admin.id, at: T0, redirectTo: "/admin" });
    expect(await getCurrentUser(session)).toBeNull();
    expect(userByEmail("owner@example.jp")?.lastLoginAt).toBeNull();

    const totp = await createUser("careful@example.jp", "Secret-Pass1", { totpSecretEncrypted: "encrypted" });
    const other = await newSession();
    await customerLogin("192.0.2.70", other, {
      email: "careful@example.jp",
      password: "Secret-Pass1",
      redirectTo: "/account",
    });
    expect(other.get("pendingLogin")).toEqual({ userId: totp.id, at: T0, redirectTo: "/account" });
  });
});

describe("one failure count per address, whatever the login", () => {
  const wrong = (email: string) => ({ email, password: "wrong-password" });
  const shown = (result: Awaited<ReturnType<typeof attemptLogin>>) =>
    result.ok
      ? result
      : { ...result, lockedUntil: "lockedUntil" in result ? result.lockedUntil.getTime() : null };

  it("an admin account gets 5 guesses at /login too, not 10 (the right password is refused after 5)", async () => {
    setClock(() => T0);
    await createUser("boss@example.jp", "Admin-Pass-1234", { isAdmin: true });
    for (let i = 0; i < 5; i++)
      expect(
        await attemptLogin(requestFrom("192.0.2.90"), wrong("boss@example.jp"), CUSTOMER_LOGIN_POLICY),
      ).toMatchObject({ ok: false, reason: "invalid", status: 401 });
    // The 6th guess, right this time: refused as a customer's wrong 6th would be.
    const sixth = await attemptLogin(
      requestFrom("192.0.2.90"),
      { email: "boss@example.jp", password: "Admin-Pass-1234" },
      CUSTOMER_LOGIN_POLICY,
    );
    expect(sixth).toMatchObject({ ok: false, reason: "invalid", status: 401, remainingAttempts: 4 });
    expect(userByEmail("boss@example.jp")?.failedLoginCount).toBe(6);
    // The admin login says what it is: locked.
    expect(
      await attemptLogin(
        requestFrom("192.0.2.90"),
        { email: "boss@example.jp", password: "Admin-Pass-1234" },
        ADMIN_LOGIN_POLICY,
      ),
    ).toMatchObject({ ok: false, reason: "locked", status: 423 });
    // 15 quiet minutes later the admin logs in.
    setClock(() => T0 + 15 * MINUTE);
    expect(
      await attemptLogin(
        requestFrom("192.0.2.90"),
        { email: "boss@example.jp", password: "Admin-Pass-1234" },
        CUSTOMER_LOGIN_POLICY,
      ),
    ).toMatchObject({ ok: true });
  });

  it("the answers of both logins are the same for an admin's, a customer's and an unknown address, whichever login the failures came through", async () => {
    setClock(() => T0);
    await createUser("chief@example.jp", "Admin-Pass-1234", { isAdmin: true });
    await createUser("buyer@example.jp", "Secret-Pass1");
    const run = async (email: string, ip: string) => {
      const answers = [];
      const at = (policy: LoginPolicy) => attemptLogin(requestFrom(ip), wrong(email), policy);
      for (let i = 0; i < 3; i++) answers.push(shown(await at(ADMIN_LOGIN_POLICY)));
      for (let i = 0; i < 3; i++) answers.push(shown(await at(CUSTOMER_LOGIN_POLICY)));
      answers.push(shown(await at(ADMIN_LOGIN_POLICY)));
      for (let i = 0; i < 5; i++) answers.push(shown(await at(CUSTOMER_LOGIN_POLICY)));
      setClock(() => T0 + 16 * MINUTE);
      answers.push(shown(await at(CUSTOMER_LOGIN_POLICY)));
      for (let i = 0; i < 3; i++) answers.push(shown(await at(ADMIN_LOGIN_POLICY)));
      setClock(() => T0);
      return answers;
    };
    const admin = await run("chief@example.jp", "192.0.2.91");
    const customer = await run("buyer@example.jp", "192.0.2.92");
    const unknown = await run("ghost@example.jp", "192.0.2.93");
    expect(admin).toEqual(customer);
    expect(unknown).toEqual(customer);
    expect(customer.map((r) => (r.ok ? "ok" : `${r.status}`))).toEqual([
      ...["401", "401", "401"],
      ...["401", "401", "401"],
      "423",
      ...["401", "401", "401", "423", "423"],
      "401",
      ...["401", "401", "401"],
    ]);
  });
});
