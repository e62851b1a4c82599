import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { authenticator } from "otplib";
import { describe, expect, it, vi } from "vitest";
import { action as adminLoginAction } from "~/routes/admin/login";
import { action as secondFactorAction, loader as secondFactorLoader } from "~/routes/admin/second-factor";
import { action as setupAction, loader as setupLoader } from "~/routes/admin/two-factor-setup";
import { setClock } from "~/server/core/clock.server";
import { open, seal } from "~/server/core/secret-box.server";
import { db } from "~/server/db/client.server";
import { sessions } from "~/server/db/schema";
import { commitSession, getSession } from "~/server/http/session.server";
import { createUser, requestFrom, userByEmail } from "../../../helpers/accounts";
import { callRoute, sessionOf, type RouteResult } from "../../../helpers/route";
import { smtpServerForThisFile } from "../../../helpers/smtp-per-file";

const T0 = Date.UTC(2025, 5, 1, 3, 0, 0);
const MINUTE = 60_000;
const PASSWORD = "Admin-Pass-1234";
const IP = "198.51.100.90";

const smtp = smtpServerForThisFile();
/** An admin session as the admin's browser holds it after a completed second factor. */
async function adminCookie(user: { id: number }, at = T0) {
  const session = await getSession(new Request("http://localhost/"));
  session.set("userId", user.id);
  session.set("loggedInAt", at);
  session.set("adminVerifiedAt", at);
  return (await commitSession(session)).split(";")[0] ?? "";
}

const SETUP_URL = "http://localhost/admin/two-factor-setup";

function getSetup(cookie: string, query = "") {
  return callRoute(
    setupLoader,
    requestFrom(IP, { url: `${SETUP_URL}${query}`, headers: { Cookie: cookie } }),
  );
}

function postSetup(cookie: string, fields: Record<string, string>) {
  return callRoute(
    setupAction,
    requestFrom(IP, {
      url: SETUP_URL,
      method: "POST",
      body: new URLSearchParams(fields),
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
    }),
  );
}

/**
 * What the cookie carries, read as anyone holding it can (signed, not encrypted: base64 of the
 * JSON, then ".signature"), and what the server keeps for it in the sessions table: the
 * secret must be in neither.
 */
function readableCookie(result: RouteResult): string {
  const setCookie = result.headers.get("Set-Cookie");
  if (!setCookie) return "";
  const value = decodeURIComponent(setCookie.split(";")[0]!.split("=").slice(1).join("="));
  const token = JSON.parse(Buffer.from(value.slice(0, value.lastIndexOf(".")), "base64").toString("utf8"));
  expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  const id = crypto.createHash("sha256").update(String(token)).digest("base64url");
  const row = db().select().from(sessions).where(eq(sessions.id, id)).get();
  // The decoding is right (else the check below would pass for nothing): it is the session.
  expect(JSON.parse(row?.data ?? "{}")).toHaveProperty("userId");
  return `${String(token)} ${row?.data ?? ""}`;
}

function lastMailTo(address: string) {
  return smtp.received.filter((mail) => mail.to.includes(address)).at(-1);
}

function mailedCode(address: string): string {
  const code = /\b(\d{6})\b/.exec(lastMailTo(address)?.text ?? "")?.[1];
  if (!code) throw new Error("no code mail");
  return code;
}

function wrongCode(right: string): string {
  return right === "000000" ? "111111" : "000000";
}

/** The app's code at a time (set as options: the shop's own TOTP sets the shared instance's epoch, which beats a clone's defaults). */
function totpAt(secret: string, at: number): string {
  const app = authenticator.clone();
  app.options = { epoch: at };
  return app.generate(secret);
}

function storedSecret(email: string): string | null {
  const sealed = userByEmail(email)?.totpSecretEncrypted;
  return sealed ? open(sealed) : null;
}

function shownSecret(result: RouteResult): string | undefined {
  const data = result.data as { secret?: string; setup?: { secret?: string } } | null;
  return data?.setup?.secret ?? data?.secret;
}

describe("the authenticator change (2段階認証の設定)", () => {
  it("the authenticator being set up is not in the session cookie", async () => {
    setClock(() => T0);
    const email = "cookie-reader@example.jp";
    const admin = await createUser(email, PASSWORD, { isAdmin: true });
    const cookie = await adminCookie(admin);

    const page = await getSetup(cookie);
    expect(page.status).toBe(200);
    const cookies = [readableCookie(page)];
    // The page as it was: a new secret shown, and carried in the cookie.
    const offered = shownSecret(page);
    if (offered) expect(cookies[0]).not.toContain(offered);
    const sent = await postSetup(cookie, { intent: "send-code" });
    expect(sent.status).toBe(200);
    cookies.push(readableCookie(sent));
    const started = await postSetup(cookie, { intent: "start", password: PASSWORD, code: mailedCode(email) });
    expect(started.status).toBe(200);
    cookies.push(readableCookie(started));
    // On the server it is sealed: the database holds no readable copy either.
    const sealed = userByEmail(email)?.pendingTotpSecretEncrypted ?? "";
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain(shownSecret(started) ?? "-");

    const secret = shownSecret(started) ?? shownSecret(page);
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    // Confirming it: the route answers with the session's cookie (its toast, its login kept).
    const { token } = (started.data as { setup: { token: string } }).setup;
    const confirmed = await postSetup(cookie, { intent: "confirm", token, code: totpAt(secret!, T0) });
    expect(confirmed.status).toBe(303);
    cookies.push(readableCookie(confirmed));
    expect(cookies.at(-1)).toContain("2段階認証を設定しました");
    for (const json of cookies) expect(json).not.toContain(secret!);
    // A reload of the page (what a stolen session would see) does not show it.
    expect(shownSecret(await getSetup(cookie))).toBeUndefined();
  });

  it("an admin session alone cannot replace the authenticator (password and current factor required)", async () => {
    setClock(() => T0);
    const email = "session-thief@example.jp";
    const current = authenticator.generateSecret(20);
    const admin = await createUser(email, PASSWORD, { isAdmin: true, totpSecretEncrypted: seal(current) });
    const stolen = await adminCookie(admin);

    // The attack as it worked: open the page, read the new secret, confirm it with its code.
    const page = await getSetup(stolen);
    const offered = shownSecret(page);
    if (offered) await postSetup(sessionOf(page), { code: totpAt(offered, T0) });
    expect(storedSecret(email)).toBe(current);

    // Without the password, or with a wrong one, even with the current app's code: refused.
    const noPassword = await postSetup(stolen, { intent: "start", code: totpAt(current, T0) });
    expect(noPassword.status).toBe(400);
    expect(noPassword.data).toMatchObject({ errors: { password: "パスワードを入力してください" } });
    const wrongPassword = await postSetup(stolen, {
      intent: "start",
      password: "Guess-1234",
      code: totpAt(current, T0),
    });
    expect(wrongPassword).toMatchObject({
      status: 401,
      data: { errors: { password: "パスワードが正しくありません" } },
    });
    // With the password but without the current factor: refused.
    const noCode = await postSetup(stolen, { intent: "start", password: PASSWORD });
    expect(noCode.status).toBe(400);
    const wrong = await postSetup(stolen, {
      intent: "start",
      password: PASSWORD,
      code: wrongCode(totpAt(current, T0)),
    });
    expect(wrong).toMatchObject({ status: 401, data: { errors: { code: "認証コードが正しくありません" } } });
    // Removing it, likewise.
    const remove = await postSetup(stolen, { intent: "remove", password: "Guess-1234", code: "123456" });
    expect(remove.status).toBe(401);
    // Confirming a setup it did not start (no token of its own): nothing to confirm.
    const confirm = await postSetup(stolen, { intent: "confirm", token: "x".repeat(32), code: "123456" });
    expect(confirm.status).toBe(409);
    expect(shownSecret(confirm)).toBeUndefined();
    expect(storedSecret(email)).toBe(current);
    expect(userByEmail(email)?.pendingTotpSecretEncrypted).toBeNull();

    // With both, the change starts; the setup is then bound to the screen that started it.
    const started = await postSetup(stolen, {
      intent: "start",
      password: PASSWORD,
      code: totpAt(current, T0),
    });
    expect(started.status).toBe(200);
    const token = (started.data as { setup: { token: string } }).setup.token;
    const other = await postSetup(stolen, {
      intent: "confirm",
      token: `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`,
      code: "123456",
    });
    expect(other.status).toBe(409);
    // And it lasts 15 minutes.
    setClock(() => T0 + 15 * MINUTE);
    const late = await postSetup(stolen, {
      intent: "confirm",
      token,
      code: totpAt(shownSecret(started)!, T0 + 15 * MINUTE),
    });
    expect(late.status).toBe(409);
    expect(storedSecret(email)).toBe(current);
  });

  it("wrong passwords and codes at the change count toward the login's locks (5 → 15 minutes, 423)", async () => {
    setClock(() => T0);
    const email = "code-guesser@example.jp";
    const admin = await createUser(email, PASSWORD, { isAdmin: true });
    const cookie = await adminCookie(admin);

    // Three wrong mailed codes here...
    expect((await postSetup(cookie, { intent: "send-code" })).status).toBe(200);
    const right = mailedCode(email);
    for (let i = 0; i < 3; i++)
      expect(
        (await postSetup(cookie, { intent: "start", password: PASSWORD, code: wrongCode(right) })).status,
      ).toBe(401);
    expect(userByEmail(email)?.secondFactorFailures).toBe(3);

    // ...and two at the login's code page lock the account: one count, wherever the code is entered.
    setClock(() => T0 + MINUTE);
    const login = await callRoute(
      adminLoginAction,
      requestFrom(IP, {
        url: "http://localhost/admin-login",
        method: "POST",
        body: new URLSearchParams({ email, password: PASSWORD }),
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      }),
    );
    const pending = sessionOf(login);
    await callRoute(
      secondFactorLoader,
      requestFrom(IP, { url: "http://localhost/admin-2fa-verify", headers: { Cookie: pending } }),
    );
    const enter = (code: string) =>
      callRoute(
        secondFactorAction,
        requestFrom(IP, {
          url: "http://localhost/admin-2fa-verify",
          method: "POST",
          body: new URLSearchParams({ intent: "verify", code }),
          headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: pending },
        }),
      );
    const loginCode = mailedCode(email);
    expect((await enter(wrongCode(loginCode))).status).toBe(401);
    expect((await enter(wrongCode(loginCode))).status).toBe(423);

    // Locked: the change refuses even the right password and code.
    const refused = await postSetup(cookie, { intent: "start", password: PASSWORD, code: right });
    expect(refused).toMatchObject({
      status: 423,
      data: { message: expect.stringContaining("ロックしました") },
    });
    expect((await getSetup(cookie)).data).toMatchObject({ lockedUntil: T0 + 16 * MINUTE });

    // Wrong passwords here count as at the login: the 5th locks, and the login is locked too.
    setClock(() => T0 + 20 * MINUTE);
    const other = "password-guesser@example.jp";
    const victim = await createUser(other, PASSWORD, { isAdmin: true });
    const thief = await adminCookie(victim, T0 + 20 * MINUTE);
    for (let i = 1; i <= 4; i++) {
      const guess = await postSetup(thief, { intent: "start", password: `Guess-${i}000`, code: "123456" });
      expect(guess.status).toBe(401);
    }
    const fifth = await postSetup(thief, { intent: "start", password: "Guess-5000", code: "123456" });
    expect(fifth.status).toBe(423);
    const afterwards = await callRoute(
      adminLoginAction,
      requestFrom("198.51.100.91", {
        url: "http://localhost/admin-login",
        method: "POST",
        body: new URLSearchParams({ email: other, password: PASSWORD }),
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      }),
    );
    expect(afterwards.status).toBe(423);
  });

  it("a change mails a notice to the account and ends its other sessions; this one stays", async () => {
    setClock(() => T0);
    const email = "careful-owner@example.jp";
    const admin = await createUser(email, PASSWORD, { isAdmin: true });
    const here = await adminCookie(admin);
    const elsewhere = await adminCookie(admin);

    await postSetup(here, { intent: "send-code" });
    expect(lastMailTo(email)?.subject).toBe("【コンテスト動画ショップ】2段階認証の設定変更の確認コード");
    const started = await postSetup(here, { intent: "start", password: PASSWORD, code: mailedCode(email) });
    const { token, secret } = (started.data as { setup: { token: string; secret: string } }).setup;
    const wrongFirst = await postSetup(here, {
      intent: "confirm",
      token,
      code: wrongCode(totpAt(secret, T0)),
    });
    expect(wrongFirst).toMatchObject({ status: 400, data: { step: "scan", setup: { secret } } });
    const done = await postSetup(here, { intent: "confirm", token, code: totpAt(secret, T0) });
    expect(done).toMatchObject({ status: 303, location: "/admin/two-factor-setup?done=1" });
    expect(storedSecret(email)).toBe(secret);
    expect(userByEmail(email)?.pendingTotpSecretEncrypted).toBeNull();

    await vi.waitFor(() =>
      expect(lastMailTo(email)?.subject).toBe(
        "【コンテスト動画ショップ】2段階認証に認証アプリを設定しました",
      ),
    );
    expect(lastMailTo(email)?.text).toContain("ほかの端末でのログインはすべて解除されています");
    const stays = sessionOf(done);
    expect((await getSetup(stays, "?done=1")).data).toMatchObject({ done: true, enabled: true });
    expect(await getSetup(elsewhere)).toMatchObject({ status: 302, location: "/admin-login" });

    // Removing it: the password and the app's (next) code; a notice again, other sessions end again.
    setClock(() => T0 + 30_000);
    const another = await adminCookie(admin);
    const removed = await postSetup(stays, {
      intent: "remove",
      password: PASSWORD,
      code: totpAt(secret, T0 + 30_000),
    });
    expect(removed).toMatchObject({ status: 303, location: "/admin/two-factor-setup" });
    expect(storedSecret(email)).toBeNull();
    await vi.waitFor(() =>
      expect(lastMailTo(email)?.subject).toBe(
        "【コンテスト動画ショップ】2段階認証の認証アプリを解除しました",
      ),
    );
    expect((await getSetup(sessionOf(removed))).status).toBe(200);
    expect(await getSetup(another)).toMatchObject({ status: 302, location: "/admin-login" });
  });
});
