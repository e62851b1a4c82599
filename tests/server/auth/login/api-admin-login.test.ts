import { and, eq } from "drizzle-orm";
import { authenticator } from "otplib";
import { describe, expect, it, vi } from "vitest";
import * as authCheckRoute from "~/routes/api/auth-check";
import * as logoutRoute from "~/routes/api/logout";
import * as loginRoute from "~/routes/api/admin/login";
import * as verifyRoute from "~/routes/api/admin/verify-2fa";
import * as resendRoute from "~/routes/api/admin/resend-2fa";
import * as setupRoute from "~/routes/api/authenticator/setup";
import * as confirmRoute from "~/routes/api/authenticator/confirm";
import * as dashboardRoute from "~/routes/api/security-dashboard";
import { setClock } from "~/server/core/clock.server";
import { open, seal } from "~/server/core/secret-box.server";
import { db } from "~/server/db/client.server";
import { loginEvents, sessions } from "~/server/db/schema";
import { commitSession, getSession } from "~/server/http/session.server";
import { adminWithToken, apiCall } from "../../../helpers/api";
import { createUser, userByEmail } from "../../../helpers/accounts";
import { callRoute, sessionOf, type RouteResult } from "../../../helpers/route";
import { smtpServerForThisFile } from "../../../helpers/smtp-per-file";

const T0 = Date.UTC(2025, 5, 1, 3, 0, 0);
const MINUTE = 60_000;
const PASSWORD = "Admin-Pass-1234";

const smtp = smtpServerForThisFile();
let n = 0;
/** An address and a client address of the test's own, so no two tests share a count. */
function fresh(label: string) {
  n++;
  return { email: `${label}-${n}@example.jp`, ip: `203.0.113.${n}` };
}

function mailsTo(address: string) {
  return smtp.received.filter((mail) => mail.to.includes(address));
}

function mailedCode(address: string): string {
  const code = /\b(\d{6})\b/.exec(mailsTo(address).at(-1)?.text ?? "")?.[1];
  if (!code) throw new Error(`no code mailed to ${address}`);
  return code;
}

const wrongCode = (right: string) => (right === "000000" ? "111111" : "000000");

function outcomes(email: string) {
  return db()
    .select({ outcome: loginEvents.outcome })
    .from(loginEvents)
    .where(and(eq(loginEvents.email, email), eq(loginEvents.kind, "admin")))
    .orderBy(loginEvents.id)
    .all()
    .map((row) => row.outcome);
}

/** A session cookie holding the given login keys, as the browser would send it back. */
async function cookieWith(values: Record<string, unknown>) {
  const session = await getSession(new Request("http://shop.test/"));
  for (const [key, value] of Object.entries(values)) session.set(key as "userId", value as number);
  return (await commitSession(session)).split(";")[0] ?? "";
}

const adminSessionOf = (userId: number, at = Date.now()) =>
  cookieWith({ userId, loggedInAt: at, adminVerifiedAt: at });

const login = (json: unknown, ip: string, cookie?: string) =>
  apiCall(loginRoute, "POST", "/api/admin/login", { json, ip, cookie });
const verify = (json: unknown, cookie: string, ip: string) =>
  apiCall(verifyRoute, "POST", "/api/admin/verify-2fa", { json, cookie, ip });
const resend = (json: unknown, cookie: string, ip: string) =>
  apiCall(resendRoute, "POST", "/api/admin/resend-2fa", { json, cookie, ip });
const check = (options: { cookie?: string; token?: string } = {}) =>
  apiCall(authCheckRoute, "GET", "/api/auth/check", options);

/** The password step through the API: the pending login's cookie (the code is mailed). */
async function passwordStep(email: string, ip: string): Promise<string> {
  const answer = await login({ email, password: PASSWORD }, ip);
  expect(answer.status).toBe(200);
  return sessionOf(answer);
}

/** A whole admin login through the API: the admin session's cookie. */
async function apiLogin(email: string, ip: string): Promise<string> {
  const pending = await passwordStep(email, ip);
  const done = await verify({ email, code: mailedCode(email) }, pending, ip);
  expect(done.status).toBe(200);
  return sessionOf(done);
}

describe("GET /api/auth/check", () => {
  it("answers who the session is: nobody, a customer, an admin", async () => {
    expect(await check()).toMatchObject({
      status: 200,
      data: { authenticated: false, admin: false, user: null },
    });
    const customer = await createUser(`check-customer-${Math.random()}@example.jp`, PASSWORD);
    const customerCookie = await cookieWith({ userId: customer.id, loggedInAt: Date.now() });
    expect((await check({ cookie: customerCookie })).data).toEqual({
      authenticated: true,
      admin: false,
      user: { id: customer.id, username: customer.email, name: customer.name, isAdmin: false },
    });
    const admin = await createUser(`check-admin-${Math.random()}@example.jp`, PASSWORD, { isAdmin: true });
    expect((await check({ cookie: await adminSessionOf(admin.id) })).data).toMatchObject({
      authenticated: true,
      admin: true,
      user: { username: admin.email, isAdmin: true },
    });
  });

  it("a bearer token counts as its admin; a bad one is 401", async () => {
    const { admin, token } = adminWithToken("read");
    expect(await check({ token })).toMatchObject({
      status: 200,
      data: { authenticated: true, admin: true, user: { id: admin.id, username: admin.email } },
    });
    expect((await check({ token: "cvs_nothing" })).status).toBe(401);
  });

  it("an admin whose 60-minute admin session is over is logged in, but not as an admin", async () => {
    const admin = await createUser(`check-old-${Math.random()}@example.jp`, PASSWORD, { isAdmin: true });
    const cookie = await adminSessionOf(admin.id, Date.now() - 61 * MINUTE);
    expect((await check({ cookie })).data).toMatchObject({ authenticated: true, admin: false });
  });

  it("attack: a login still waiting for its second factor is nobody yet", async () => {
    const admin = await createUser(`check-pending-${Math.random()}@example.jp`, PASSWORD, {
      isAdmin: true,
    });
    const cookie = await cookieWith({
      pendingLogin: { userId: admin.id, at: Date.now(), redirectTo: "/admin" },
    });
    expect((await check({ cookie })).data).toEqual({ authenticated: false, admin: false, user: null });
  });

  it("answers other methods 405 with Allow", async () => {
    const answer = await apiCall(authCheckRoute, "POST", "/api/auth/check", { json: {} });
    expect(answer.status).toBe(405);
    expect(answer.headers.get("Allow")).toBe("GET, HEAD");
  });
});

describe("POST /api/logout", () => {
  it("ends an admin's login: the cookie is cleared and the old one opens nothing", async () => {
    const admin = await createUser(`logout-${Math.random()}@example.jp`, PASSWORD, { isAdmin: true });
    const cookie = await adminSessionOf(admin.id);
    expect((await apiCall(dashboardRoute, "GET", "/api/admin/security-dashboard", { cookie })).status).toBe(
      200,
    );
    const answer = await apiCall(logoutRoute, "POST", "/api/logout", { cookie });
    expect(answer).toMatchObject({ status: 200, data: { ok: true } });
    expect(answer.headers.get("Set-Cookie")).toMatch(/Expires=Thu, 01 Jan 1970/);
    // A copy of the cookie taken before the logout is worth nothing after it.
    expect((await apiCall(dashboardRoute, "GET", "/api/admin/security-dashboard", { cookie })).status).toBe(
      401,
    );
    expect((await check({ cookie })).data).toMatchObject({ authenticated: false });
  });

  it("ends a customer's login too, and answers 200 when nobody was logged in", async () => {
    const customer = await createUser(`logout-customer-${Math.random()}@example.jp`, PASSWORD);
    const cookie = await cookieWith({ userId: customer.id, loggedInAt: Date.now() });
    expect((await apiCall(logoutRoute, "POST", "/api/logout", { cookie })).data).toEqual({ ok: true });
    expect((await check({ cookie })).data).toMatchObject({ authenticated: false });
    expect(await apiCall(logoutRoute, "POST", "/api/logout")).toMatchObject({
      status: 200,
      data: { ok: true },
    });
    expect((await apiCall(logoutRoute, "GET", "/api/logout")).status).toBe(405);
  });
});

describe("POST /api/admin/login", () => {
  it("a right password starts the second factor on the session and mails the code, as /admin-login does", async () => {
    const { email, ip } = fresh("login-ok");
    await createUser(email, PASSWORD, { isAdmin: true });
    const answer = await login({ email: ` ${email.toUpperCase()} `, password: PASSWORD }, ip);
    expect(answer).toMatchObject({
      status: 200,
      data: {
        requiresTwoFactor: true,
        redirectTo: "/admin-2fa-verify",
        message: `${email} に送信した6桁の認証コードを入力してください。`,
        remainingAttempts: null,
        lockoutUntil: null,
      },
    });
    expect(mailedCode(email)).toMatch(/^\d{6}$/);
    expect(outcomes(email)).toEqual(["success"]);
    // Nobody is logged in yet: the session only waits for the code.
    const cookie = sessionOf(answer);
    expect((await check({ cookie })).data).toMatchObject({ authenticated: false });
    expect((await apiCall(dashboardRoute, "GET", "/api/admin/security-dashboard", { cookie })).status).toBe(
      401,
    );
  });

  it("an admin with an authenticator app is asked for its code, and nothing is mailed", async () => {
    const { email, ip } = fresh("login-totp");
    await createUser(email, PASSWORD, {
      isAdmin: true,
      totpSecretEncrypted: seal(authenticator.generateSecret(20)),
    });
    const answer = await login({ email, password: PASSWORD }, ip);
    expect(answer.data).toMatchObject({
      message: "認証アプリに表示されている6桁のコードを入力してください。",
    });
    expect(mailsTo(email)).toHaveLength(0);
  });

  it("answers bad input 422 with the login form's messages per field, and a body that is not JSON 400", async () => {
    const { ip } = fresh("login-bad");
    expect(await login({ email: "not an address" }, ip)).toMatchObject({
      status: 422,
      data: {
        error: "入力エラー",
        fields: {
          email: ["メールアドレスの形式が正しくありません"],
          password: ["パスワードを入力してください"],
        },
      },
    });
    expect(await login({ email: 1, password: ["x"] }, ip)).toMatchObject({ status: 422 });
    const notJson = await callRoute(
      loginRoute.action,
      new Request("http://shop.test/api/admin/login", {
        method: "POST",
        body: "{email: 'x'",
        headers: { "Content-Type": "application/json", "X-Shop-Client-Address": ip },
      }),
    );
    expect(notJson).toMatchObject({
      status: 400,
      data: { message: "送信内容を JSON として読み取れませんでした" },
    });
    expect((await apiCall(loginRoute, "GET", "/api/admin/login")).status).toBe(405);
  });

  it("attack: password guessing counts down remainingAttempts and locks the admin for 15 minutes (423), the right password included", async () => {
    setClock(() => T0);
    const { email, ip } = fresh("login-guess");
    await createUser(email, PASSWORD, { isAdmin: true });
    const remaining = [];
    for (let i = 0; i < 4; i++) {
      const wrong = await login({ email, password: `guess-${i}` }, ip);
      expect(wrong).toMatchObject({
        status: 401,
        data: { error: "Unauthorized", message: "メールアドレスまたはパスワードが正しくありません" },
      });
      remaining.push((wrong.data as { remainingAttempts: number }).remainingAttempts);
    }
    expect(remaining).toEqual([4, 3, 2, 1]);
    const fifth = await login({ email, password: "guess-5" }, ip);
    expect(fifth).toMatchObject({
      status: 423,
      data: {
        error: "アカウントロック",
        message: "管理者アカウントがロックされています。15分後に再試行してください",
        lockoutUntil: new Date(T0 + 15 * MINUTE).toISOString(),
      },
    });
    expect((await login({ email, password: PASSWORD }, ip)).status).toBe(423);
    expect(mailsTo(email)).toHaveLength(0);
    expect(outcomes(email)).toEqual(["failure", "failure", "failure", "failure", "failure", "locked"]);
    setClock(() => T0 + 15 * MINUTE + 1000);
    expect((await login({ email, password: PASSWORD }, ip)).status).toBe(200);
  });

  it("attack: a customer's account looks like no account at all, whatever the password", async () => {
    const { email, ip } = fresh("login-customer");
    await createUser(email, PASSWORD);
    const customer = await login({ email, password: PASSWORD }, ip);
    const nobody = await login({ email: `nobody-${email}`, password: PASSWORD }, ip);
    expect(customer.status).toBe(401);
    expect(customer.data).toEqual(nobody.data);
    expect(sessionOf(customer)).toBe("");
  });

  it("attack: one client address trying many addresses is stopped (429 with Retry-After)", async () => {
    const { ip } = fresh("login-spray");
    let last: RouteResult | null = null;
    for (let i = 0; i < 21; i++)
      last = await login({ email: `spray-${i}-${ip}@example.jp`, password: "x" }, ip);
    expect(last?.status).toBe(429);
    expect(Number(last?.headers.get("Retry-After"))).toBeGreaterThan(0);
  });
});

describe("POST /api/admin/verify-2fa", () => {
  it("the mailed code completes the admin session (Set-Cookie), recorded like the screen's", async () => {
    const { email, ip } = fresh("verify-ok");
    await createUser(email, PASSWORD, { isAdmin: true });
    const pending = await passwordStep(email, ip);
    const done = await verify({ email, code: mailedCode(email) }, pending, ip);
    expect(done).toMatchObject({ status: 200, data: { redirectTo: "/admin", message: "ログインしました" } });
    const cookie = sessionOf(done);
    expect(cookie).not.toBe(pending);
    expect((await apiCall(dashboardRoute, "GET", "/api/admin/security-dashboard", { cookie })).status).toBe(
      200,
    );
    expect((await check({ cookie })).data).toMatchObject({ authenticated: true, admin: true });
    expect(outcomes(email)).toEqual(["success", "success"]);
    expect(userByEmail(email)?.lastLoginAt).toBeInstanceOf(Date);
  });

  it("answers bad input 422 per field, and 401 without a login waiting", async () => {
    const { email, ip } = fresh("verify-bad");
    expect(await verify({ email, code: "12ab" }, "", ip)).toMatchObject({
      status: 422,
      data: { fields: { code: ["6桁の認証コードを入力してください"] } },
    });
    expect(await verify({ code: "123456" }, "", ip)).toMatchObject({
      status: 422,
      data: { fields: { email: ["メールアドレスを入力してください"] } },
    });
    expect(await verify({ email, code: "123456" }, "", ip)).toMatchObject({
      status: 401,
      data: { message: "認証に失敗しました。もう一度ログインしてください。" },
    });
  });

  it("attack: code guessing counts per account and locks it at the 5th wrong code (423), the right code included", async () => {
    setClock(() => T0);
    const { email, ip } = fresh("verify-guess");
    await createUser(email, PASSWORD, { isAdmin: true });
    const pending = await passwordStep(email, ip);
    const code = mailedCode(email);
    const warnings = [];
    for (let i = 0; i < 4; i++) {
      const wrong = await verify({ email, code: wrongCode(code) }, pending, ip);
      expect(wrong).toMatchObject({ status: 401, data: { error: "Unauthorized" } });
      warnings.push((wrong.data as { warning: string | null }).warning);
    }
    expect(warnings).toEqual([
      null,
      "残り試行回数: 3回",
      "残り試行回数: 2回",
      "残り試行回数: 1回。次に失敗すると15分間ロックされます",
    ]);
    expect(await verify({ email, code: wrongCode(code) }, pending, ip)).toMatchObject({
      status: 423,
      data: { lockoutUntil: new Date(T0 + 15 * MINUTE).toISOString() },
    });
    expect((await verify({ email, code }, pending, ip)).status).toBe(423);
    expect(outcomes(email).slice(-6)).toEqual([
      "second-factor-failure",
      "second-factor-failure",
      "second-factor-failure",
      "second-factor-failure",
      "second-factor-failure",
      "locked",
    ]);
  });

  it("attack: the address in the body never picks the account: another admin's address with their code opens nothing", async () => {
    const a = fresh("verify-a");
    const b = fresh("verify-b");
    await createUser(a.email, PASSWORD, { isAdmin: true });
    await createUser(b.email, PASSWORD, { isAdmin: true });
    const pendingA = await passwordStep(a.email, a.ip);
    await passwordStep(b.email, b.ip);
    // A's session, B's address and B's own right code: refused before any code is checked.
    const crossed = await verify({ email: b.email, code: mailedCode(b.email) }, pendingA, a.ip);
    expect(crossed).toMatchObject({
      status: 401,
      data: { message: "認証に失敗しました。もう一度ログインしてください。" },
    });
    expect(userByEmail(b.email)?.secondFactorFailures).toBe(0);
    expect(userByEmail(a.email)?.secondFactorFailures).toBe(0);
    // A's own login still waits, and A's own code completes it.
    expect((await verify({ email: a.email, code: mailedCode(a.email) }, pendingA, a.ip)).status).toBe(200);
  });

  it("after 10 minutes the code step has expired: 401 back to the login, and the waiting login is ended", async () => {
    setClock(() => T0);
    const { email, ip } = fresh("verify-expired");
    await createUser(email, PASSWORD, { isAdmin: true });
    const pending = await passwordStep(email, ip);
    const code = mailedCode(email);
    setClock(() => T0 + 10 * MINUTE + 1000);
    const late = await verify({ email, code }, pending, ip);
    expect(late).toMatchObject({
      status: 401,
      data: {
        redirectTo: "/admin-login",
        message: "認証コードの有効期限が切れました。もう一度ログインしてください。",
      },
    });
    const session = await getSession(
      new Request("http://shop.test/", { headers: { Cookie: sessionOf(late) } }),
    );
    expect(session.get("pendingLogin")).toBeUndefined();
  });
});

describe("POST /api/admin/resend-2fa", () => {
  it("resends to the pending login's own address after a minute (429 with Retry-After before), and the new code works", async () => {
    setClock(() => T0);
    const { email, ip } = fresh("resend-ok");
    await createUser(email, PASSWORD, { isAdmin: true });
    const pending = await passwordStep(email, ip);
    const tooSoon = await resend({ email }, pending, ip);
    expect(tooSoon).toMatchObject({ status: 429, data: { message: "再送信は60秒後にお試しください" } });
    expect(tooSoon.headers.get("Retry-After")).toBe("60");
    setClock(() => T0 + 61_000);
    const again = await resend({ email }, pending, ip);
    expect(again).toMatchObject({ status: 200, data: { message: "認証コードを再送信しました" } });
    expect(mailsTo(email)).toHaveLength(2);
    const cookie = sessionOf(again);
    // The 10 minutes start again from the resend.
    setClock(() => T0 + 61_000 + 9 * MINUTE);
    expect((await verify({ email, code: mailedCode(email) }, cookie, ip)).status).toBe(200);
  });

  it("attack: a resend naming another address mails nobody (no mail to addresses the client names)", async () => {
    setClock(() => T0);
    const { email, ip } = fresh("resend-owner");
    await createUser(email, PASSWORD, { isAdmin: true });
    const pending = await passwordStep(email, ip);
    setClock(() => T0 + 2 * MINUTE);
    const victim = `victim-${n}@example.jp`;
    const answer = await resend({ email: victim }, pending, ip);
    expect(answer).toMatchObject({ status: 409, data: { message: "再送信に失敗しました" } });
    expect(mailsTo(victim)).toHaveLength(0);
    expect(mailsTo(email)).toHaveLength(1);
  });

  it("answers 422 without an address, and 409 when no login waits", async () => {
    const { email, ip } = fresh("resend-bad");
    expect(await resend({}, "", ip)).toMatchObject({
      status: 422,
      data: { fields: { email: ["メールアドレスを入力してください"] } },
    });
    expect((await resend({ email }, "", ip)).status).toBe(409);
  });

  it("attack: a resend does not bring an expired code step back", async () => {
    setClock(() => T0);
    const { email, ip } = fresh("resend-expired");
    await createUser(email, PASSWORD, { isAdmin: true });
    const pending = await passwordStep(email, ip);
    setClock(() => T0 + 11 * MINUTE);
    expect((await resend({ email }, pending, ip)).status).toBe(409);
    expect(mailsTo(email)).toHaveLength(1);
  });
});

describe("POST /api/setup-2fa and POST /api/verify-2fa", () => {
  const setup = (json: unknown, cookie: string, ip = "198.51.100.91") =>
    apiCall(setupRoute, "POST", "/api/setup-2fa", { json, cookie, ip });
  const confirm = (json: unknown, cookie: string, ip = "198.51.100.91") =>
    apiCall(confirmRoute, "POST", "/api/verify-2fa", { json, cookie, ip });

  /** The app's code now, as a phone shows it. */
  function totp(secret: string) {
    const app = authenticator.clone();
    app.options = { epoch: Date.now() };
    return app.generate(secret);
  }

  it("mails a code, answers the secret and QR code for password and code, and the app's first code sets it up: other logins end, a notice is mailed", async () => {
    const { email, ip } = fresh("setup-ok");
    const admin = await createUser(email, PASSWORD, { isAdmin: true });
    const cookie = await apiLogin(email, ip);
    const otherDevice = await adminSessionOf(admin.id);

    const sent = await setup(undefined, cookie, ip);
    expect(sent).toMatchObject({ status: 202, data: { codeSent: true } });
    const started = await setup({ password: PASSWORD, code: mailedCode(email) }, cookie, ip);
    expect(started.status).toBe(200);
    const { secret, qrCode } = started.data as { secret: string; qrCode: string };
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(qrCode).toMatch(/^data:image\/png;base64,/);
    // Kept sealed on the server until confirmed: not yet the login's factor.
    expect(userByEmail(email)?.totpSecretEncrypted).toBeNull();

    const mailsBefore = mailsTo(email).length;
    const confirmed = await confirm({ token: totp(secret), secret }, cookie, ip);
    expect(confirmed).toMatchObject({
      status: 200,
      data: { enabled: true, change: "set-up", message: "2段階認証を設定しました" },
    });
    expect(open(userByEmail(email)!.totpSecretEncrypted!)).toBe(secret);
    await vi.waitFor(() => expect(mailsTo(email).length).toBe(mailsBefore + 1));
    expect(mailsTo(email).at(-1)?.subject).toContain("認証アプリ");
    // This session stays; the one on the other device has ended.
    expect((await check({ cookie })).data).toMatchObject({ admin: true });
    expect((await check({ cookie: otherDevice })).data).toMatchObject({ authenticated: false });
    // The next login asks for the app's code.
    expect((await login({ email, password: PASSWORD }, ip)).data).toMatchObject({
      message: "認証アプリに表示されている6桁のコードを入力してください。",
    });
  });

  it("answers bad input 422 per field, a wrong password 401 counted as at the login", async () => {
    const { email, ip } = fresh("setup-bad");
    const admin = await createUser(email, PASSWORD, { isAdmin: true });
    const cookie = await adminSessionOf(admin.id);
    expect(await setup({ password: PASSWORD }, cookie, ip)).toMatchObject({
      status: 422,
      data: { fields: { code: ["6桁の認証コードを入力してください"] } },
    });
    const wrong = await setup({ password: "wrong-password", code: "123456" }, cookie, ip);
    expect(wrong).toMatchObject({
      status: 401,
      data: { fields: { password: ["パスワードが正しくありません"] } },
    });
    expect(userByEmail(email)?.failedLoginCount).toBe(1);
    expect(await confirm({ token: "12", secret: "" }, cookie, ip)).toMatchObject({
      status: 422,
      data: { fields: { token: ["6桁の認証コードを入力してください"], secret: [expect.any(String)] } },
    });
  });

  it("attack: a secret the server did not issue sets nothing (409), and a wrong app code is 422", async () => {
    const { email, ip } = fresh("setup-forged");
    const admin = await createUser(email, PASSWORD, { isAdmin: true });
    const cookie = await adminSessionOf(admin.id);
    const forged = authenticator.generateSecret(20);
    expect(await confirm({ token: totp(forged), secret: forged }, cookie, ip)).toMatchObject({
      status: 409,
      data: { message: expect.stringContaining("設定の有効期限が切れました") },
    });
    expect(userByEmail(email)?.totpSecretEncrypted).toBeNull();

    await setup(undefined, cookie, ip);
    const started = await setup({ password: PASSWORD, code: mailedCode(email) }, cookie, ip);
    const { secret } = started.data as { secret: string };
    // The issued setup is still refused under a forged secret...
    expect((await confirm({ token: totp(forged), secret: forged }, cookie, ip)).status).toBe(409);
    // ...and with its own secret a wrong code is a field error.
    const code = totp(secret);
    expect(
      await confirm({ token: code === "000000" ? "111111" : "000000", secret }, cookie, ip),
    ).toMatchObject({
      status: 422,
      data: { fields: { token: [expect.stringContaining("認証コードが正しくありません")] } },
    });
    expect(userByEmail(email)?.totpSecretEncrypted).toBeNull();
  });

  it("attack: an API token cannot change the second factor (403), and nobody else can at all (401)", async () => {
    const { token } = adminWithToken("write");
    const withToken = await apiCall(setupRoute, "POST", "/api/setup-2fa", { token });
    expect(withToken).toMatchObject({
      status: 403,
      data: { message: "2段階認証の設定は、管理者としてログインしたブラウザからのみ変更できます" },
    });
    expect((await apiCall(confirmRoute, "POST", "/api/verify-2fa", { token, json: {} })).status).toBe(403);
    const customer = await createUser(`setup-customer-${Math.random()}@example.jp`, PASSWORD);
    const customerCookie = await cookieWith({ userId: customer.id, loggedInAt: Date.now() });
    expect((await setup(undefined, customerCookie)).status).toBe(401);
    expect((await confirm({}, "")).status).toBe(401);
    expect((await apiCall(setupRoute, "GET", "/api/setup-2fa")).status).toBe(405);
    const read = adminWithToken("read");
    expect((await apiCall(setupRoute, "POST", "/api/setup-2fa", { token: read.token })).status).toBe(403);
  });

  it("an admin whose app is set up is asked for the app's code instead of a mail", async () => {
    const { email, ip } = fresh("setup-replace");
    const admin = await createUser(email, PASSWORD, {
      isAdmin: true,
      totpSecretEncrypted: seal(authenticator.generateSecret(20)),
    });
    const cookie = await adminSessionOf(admin.id);
    expect(await setup(undefined, cookie, ip)).toMatchObject({
      status: 422,
      data: { fields: { code: ["認証アプリに表示されている6桁のコードを入力してください"] } },
    });
    expect(mailsTo(email)).toHaveLength(0);
    expect(db().select().from(sessions).where(eq(sessions.userId, admin.id)).all()).toHaveLength(1);
  });
});
