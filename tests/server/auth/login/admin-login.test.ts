import { describe, expect, it } from "vitest";
import {
  adminAttemptsWarning,
  ADMIN_LOCKED_MESSAGE,
  logInAdmin,
} from "~/server/auth/login/admin-login.server";
import { setClock } from "~/server/core/clock.server";
import { db } from "~/server/db/client.server";
import { users } from "~/server/db/schema";
import { hashPassword } from "~/server/auth/password.server";
import { getSession } from "~/server/http/session.server";
import { checkPassword } from "~/server/auth/login/password-step.server";
import { loginPost } from "../../../helpers/accounts";

let n = 0;
async function account(isAdmin: boolean) {
  n++;
  const email = `admin-lock-${n}@example.jp`;
  db()
    .insert(users)
    .values({ email, passwordHash: await hashPassword("Right-Password-1"), isAdmin })
    .run();
  return email;
}

/** The admin login as /admin-login's action runs it: the password step, then the login. */
async function attempt(email: string, password: string, ip = "203.0.113.7") {
  const session = await getSession(new Request("http://shop.test/"));
  const step = await checkPassword(
    loginPost(ip, { email, password }, "http://shop.test/admin-login"),
    "admin",
  );
  if (!step.checked) throw new Error("the form did not validate");
  const outcome = logInAdmin(session, step.result);
  return { outcome, session };
}

describe("admin login lockout", () => {
  it("warns at 3 or fewer attempts left, adds the lock notice at 1, locks for 15 minutes with 423, then lets in", async () => {
    const base = Date.UTC(2025, 5, 1, 0, 0, 0);
    setClock(() => base);
    const email = await account(true);
    const warnings = [];
    for (let i = 0; i < 4; i++) {
      const { outcome } = await attempt(email, "wrong");
      expect(outcome).toMatchObject({
        ok: false,
        status: 401,
        message: "メールアドレスまたはパスワードが正しくありません",
      });
      warnings.push(outcome.ok ? null : outcome.warning);
    }
    expect(warnings).toEqual([
      null,
      "残り試行回数: 3回",
      "残り試行回数: 2回",
      "残り試行回数: 1回。次に失敗すると15分間ロックされます",
    ]);

    const fifth = await attempt(email, "wrong");
    expect(fifth.outcome).toMatchObject({
      ok: false,
      status: 423,
      message: ADMIN_LOCKED_MESSAGE,
      lockedUntil: base + 15 * 60_000,
    });
    // The right password does not open a locked account.
    expect((await attempt(email, "Right-Password-1")).outcome).toMatchObject({ ok: false, status: 423 });

    setClock(() => base + 14 * 60_000);
    expect((await attempt(email, "Right-Password-1")).outcome).toMatchObject({ status: 423 });
    setClock(() => base + 15 * 60_000 + 1000);
    const after = await attempt(email, "Right-Password-1");
    expect(after.outcome).toEqual({ ok: true });
    expect(after.session.get("pendingLogin")).toMatchObject({ redirectTo: "/admin" });
    expect(after.session.get("userId")).toBeUndefined();
  });

  it("refuses a customer's account with the wrong-password message, whatever the password", async () => {
    const email = await account(false);
    const { outcome, session } = await attempt(email, "Right-Password-1", "198.51.100.9");
    expect(outcome).toMatchObject({
      ok: false,
      status: 401,
      message: "メールアドレスまたはパスワードが正しくありません",
    });
    expect(session.get("pendingLogin")).toBeUndefined();
  });

  it("formats the warning as the spec has it", () => {
    expect(adminAttemptsWarning(4)).toBeNull();
    expect(adminAttemptsWarning(2)).toBe("残り試行回数: 2回");
    expect(adminAttemptsWarning(1)).toContain("次に失敗すると15分間ロックされます");
  });
});
