import { describe, expect, it, vi } from "vitest";
import { setClock } from "~/server/core/clock.server";
import { logIn } from "~/server/auth/login/session-login.server";
import {
  changePassword,
  PASSWORD_CHANGE_MESSAGES,
  sendPasswordChangeCode,
  verifyPasswordChangeCode,
} from "~/server/accounts/password-change.server";
import { verifyPassword } from "~/server/auth/password.server";
import { getCurrentUser, type CurrentUser } from "~/server/auth/users.server";
import { createUser, newSession, requestFrom, roundTrip, userByEmail } from "../../helpers/accounts";
import { smtpServerForThisFile } from "../../helpers/smtp-per-file";
import { callRoute, sessionOf } from "../../helpers/route";
import { action as passwordAction, loader as passwordLoader } from "~/routes/account/password";
import { commitSession, getSession } from "~/server/http/session.server";

const T0 = Date.UTC(2025, 5, 1, 3, 0, 0);
const DAY = 24 * 60 * 60_000;

const smtp = smtpServerForThisFile();
async function userAndSessions(email: string) {
  const row = await createUser(email, "Old-Pass-123");
  const user: CurrentUser = { id: row.id, email: row.email, name: row.name, isAdmin: false };
  const here = await newSession();
  const elsewhere = await newSession();
  logIn(here, row);
  logIn(elsewhere, row);
  return { user, here: await roundTrip(here), elsewhere: await roundTrip(elsewhere) };
}

function latestCode(address: string) {
  const mail = smtp.received.filter((m) => m.to.includes(address)).at(-1);
  const code = /\b(\d{6})\b/.exec(mail?.text ?? "")?.[1];
  if (!code) throw new Error("no code mail");
  return code;
}

describe("password change", () => {
  it("needs the mailed code; the new password ends the other sessions and keeps this one", async () => {
    setClock(() => T0);
    const { user, here, elsewhere } = await userAndSessions("change@example.jp");
    expect(await getCurrentUser(elsewhere)).toMatchObject({ id: user.id });

    // No new password before the code.
    expect(await changePassword(here, user, "New-Pass-456")).toEqual({
      ok: false,
      status: 409,
      message: PASSWORD_CHANGE_MESSAGES.notVerified,
    });

    expect(await sendPasswordChangeCode(requestFrom("198.51.100.20"), user)).toEqual({ ok: true });
    const mail = smtp.received.at(-1);
    expect(mail?.to).toEqual(["change@example.jp"]);
    expect(mail?.subject).toBe("【コンテスト動画ショップ】パスワード変更の認証コード");
    const code = latestCode("change@example.jp");

    const wrong = verifyPasswordChangeCode(here, user, code === "000000" ? "111111" : "000000");
    expect(wrong).toEqual({ ok: false, status: 400, message: "認証コードが正しくありません（あと4回）" });
    expect(verifyPasswordChangeCode(here, user, code)).toEqual({ ok: true });

    expect(await changePassword(here, user, "New-Pass-456")).toEqual({ ok: true });
    const stored = userByEmail("change@example.jp");
    expect(await verifyPassword("Old-Pass-123", stored?.passwordHash ?? "")).toBe(false);
    expect(await verifyPassword("New-Pass-456", stored?.passwordHash ?? "")).toBe(true);

    // This browser stays logged in; the other one's session row is gone, so its cookie opens nothing.
    expect(await getCurrentUser(await roundTrip(here))).toMatchObject({ id: user.id });
    expect(await getCurrentUser(await roundTrip(elsewhere))).toBeNull();
    // The verification is used up.
    expect(await changePassword(here, user, "Another-789")).toMatchObject({ ok: false, status: 409 });
    // The owner is told by mail.
    await vi.waitFor(() =>
      expect(smtp.received.at(-1)?.subject).toBe("【コンテスト動画ショップ】パスワードを変更しました"),
    );
  });

  it("refuses an expired code, and a verification older than 10 minutes", async () => {
    setClock(() => T0);
    const { user, here } = await userAndSessions("expired@example.jp");
    await sendPasswordChangeCode(requestFrom("198.51.100.21"), user);
    const code = latestCode("expired@example.jp");
    setClock(() => T0 + 10 * 60_000 + 1);
    expect(verifyPasswordChangeCode(here, user, code)).toEqual({
      ok: false,
      status: 400,
      message: "認証コードが無効または期限切れです。新しいコードを取得してください。",
    });

    await sendPasswordChangeCode(requestFrom("198.51.100.21"), user);
    expect(verifyPasswordChangeCode(here, user, latestCode("expired@example.jp"))).toEqual({ ok: true });
    setClock(() => T0 + 21 * 60_000);
    expect(await changePassword(here, user, "New-Pass-456")).toMatchObject({ ok: false, status: 409 });
  });

  it("sends at most one code a minute", async () => {
    setClock(() => T0);
    const { user } = await userAndSessions("often@example.jp");
    expect(await sendPasswordChangeCode(requestFrom("198.51.100.22"), user)).toEqual({ ok: true });
    expect(await sendPasswordChangeCode(requestFrom("198.51.100.22"), user)).toMatchObject({
      ok: false,
      status: 429,
      alreadySent: true,
    });
  });
});

describe("token after password change", () => {
  it("token after password change: the device that changed the password carries on under a new session token (its old cookie opens nothing) and every other device is logged out", async () => {
    setClock(() => T0);
    const { user, here, elsewhere } = await userAndSessions("new-token@example.jp");
    let cookie = (await commitSession(here)).split(";")[0] ?? "";
    const elsewhereCookie = (await commitSession(elsewhere)).split(";")[0] ?? "";
    const post = async (fields: Record<string, string>) => {
      const result = await callRoute(
        passwordAction,
        requestFrom("198.51.100.91", {
          url: "http://localhost/account/password",
          method: "POST",
          body: new URLSearchParams(fields),
          headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
        }),
      );
      cookie = sessionOf(result) || cookie;
      return result;
    };
    const userOf = async (sessionCookie: string) =>
      getCurrentUser(
        await getSession(new Request("http://localhost/account", { headers: { Cookie: sessionCookie } })),
      );

    await post({ intent: "send" });
    await post({ intent: "verify", code: latestCode("new-token@example.jp") });
    // What someone who saw the cookie before the change holds (a shared computer, a stolen copy).
    const before = cookie;
    expect(await userOf(before)).toMatchObject({ id: user.id });

    const changed = await post({
      intent: "change",
      newPassword: "New-Pass-456",
      confirmPassword: "New-Pass-456",
    });
    expect(changed).toMatchObject({ status: 302, location: "/account" });
    expect(cookie).not.toBe(before);
    expect(await userOf(cookie)).toMatchObject({ id: user.id });
    expect(await userOf(before)).toBeNull();
    expect(await userOf(elsewhereCookie)).toBeNull();
  });
});

describe("sessions", () => {
  it("a session logged in more than 30 days ago no longer counts", async () => {
    setClock(() => T0);
    const { user, here } = await userAndSessions("month@example.jp");
    setClock(() => T0 + 30 * DAY);
    expect(await getCurrentUser(here)).toMatchObject({ id: user.id });
    setClock(() => T0 + 30 * DAY + 1000);
    expect(await getCurrentUser(here)).toBeNull();
  });

  it("a session without a login time does not count", async () => {
    setClock(() => T0);
    const { user, here } = await userAndSessions("odd@example.jp");
    here.unset("loggedInAt");
    expect(await getCurrentUser(here)).toBeNull();
    here.set("loggedInAt", T0);
    expect(await getCurrentUser(here)).toMatchObject({ id: user.id });
  });
});

describe("password change page", () => {
  it("without JS the page says the code was sent, once, as the dialog does", async () => {
    setClock(() => T0);
    const { here } = await userAndSessions("item9@example.jp");
    let cookie = (await commitSession(here)).split(";")[0] ?? "";
    const post = (intent: string, via?: string) => {
      const body = new URLSearchParams({ intent });
      if (via) body.set("via", via);
      return callRoute(
        passwordAction,
        requestFrom("198.51.100.90", {
          url: "http://localhost/account/password",
          method: "POST",
          body,
          headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
        }),
      );
    };
    const page = async (step: string) => {
      const result = await callRoute(
        passwordLoader,
        requestFrom("198.51.100.90", {
          url: `http://localhost/account/password?step=${step}`,
          headers: { Cookie: cookie },
        }),
      );
      cookie = sessionOf(result) || cookie;
      return result;
    };

    const sent = await post("send");
    expect(sent).toMatchObject({ status: 302, location: "/account/password?step=verify" });
    cookie = sessionOf(sent) || cookie;
    expect((await page("verify")).data).toMatchObject({
      step: "verify",
      notice: { kind: "success", message: PASSWORD_CHANGE_MESSAGES.sent },
    });
    // Shown once: a reload does not claim a new mail.
    expect((await page("verify")).data).toMatchObject({ notice: null });
    // The dialog gets the same words in its answer.
    setClock(() => T0 + 2 * 60_000);
    expect((await post("send", "dialog")).data).toMatchObject({
      step: "verify",
      notice: { kind: "success", message: PASSWORD_CHANGE_MESSAGES.sent },
    });
  });
});
