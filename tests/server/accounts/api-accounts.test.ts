import { and, eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import * as userRoute from "~/routes/api/account/user";
import * as ordersRoute from "~/routes/api/account/orders";
import * as loginRoute from "~/routes/api/account/login";
import * as registerRoute from "~/routes/api/account/register";
import * as sendRegistrationRoute from "~/routes/api/account/send-registration-code";
import * as verifyRegistrationRoute from "~/routes/api/account/verify-registration-code";
import * as verifyEmailRoute from "~/routes/api/account/verify-email";
import * as sendChangeCodeRoute from "~/routes/api/account/send-password-change-code";
import * as verifyChangeCodeRoute from "~/routes/api/account/verify-password-change-code";
import * as changePasswordRoute from "~/routes/api/account/change-password";
import * as loginScreen from "~/routes/account/login";
import { db } from "~/server/db/client.server";
import { loginEvents, orderLines, orders } from "~/server/db/schema";
import { verifyPassword } from "~/server/auth/password.server";
import { apiCall } from "../../helpers/api";
import { createUser, loginPost, userByEmail } from "../../helpers/accounts";
import { callRoute, sessionOf } from "../../helpers/route";
import { sessionCookie } from "../../helpers/shop";
import { smtpServerForThisFile } from "../../helpers/smtp-per-file";

const smtp = smtpServerForThisFile();

const PASSWORD = "Customer-Pass-1234";
let n = 0;
function fresh(label: string) {
  n++;
  return {
    email: `api-acc-${label}-${n}-${Math.random().toString(36).slice(2, 7)}@example.jp`,
    ip: `198.18.7.${n}`,
  };
}
const mailsTo = (address: string) => smtp.received.filter((mail) => mail.to.includes(address));
async function mailedCode(address: string): Promise<string> {
  await vi.waitFor(() => expect(mailsTo(address).length).toBeGreaterThan(0));
  const code = /\b(\d{6})\b/.exec(mailsTo(address).at(-1)?.text ?? "")?.[1];
  if (!code) throw new Error(`no code mailed to ${address}`);
  return code;
}
const wrongCode = (right: string) => (right === "000000" ? "111111" : "000000");
const post = (
  route: Parameters<typeof apiCall>[0],
  path: string,
  json: unknown,
  cookie?: string,
  ip?: string,
) => apiCall(route, "POST", path, { json, cookie, ip });

async function customerCookie(label: string) {
  const { email } = fresh(label);
  const user = await createUser(email, PASSWORD);
  return { user, cookie: await sessionCookie({ userId: user.id }).then((c) => c), email };
}

/** A logged-in customer's cookie (the login keys as logIn sets them). */
async function loggedIn(label: string) {
  const { email, ip } = fresh(label);
  const user = await createUser(email, PASSWORD);
  const answer = await post(loginRoute, "/api/login", { email, password: PASSWORD }, undefined, ip);
  expect(answer.status).toBe(200);
  return { user, email, ip, cookie: sessionOf(answer) };
}

describe("GET /api/user", () => {
  it("answers the logged-in customer, and 401 for nobody", async () => {
    expect(await apiCall(userRoute, "GET", "/api/user")).toMatchObject({
      status: 401,
      data: { error: "Unauthorized" },
    });
    const { user, cookie } = await loggedIn("user");
    const answer = await apiCall(userRoute, "GET", "/api/user", { cookie });
    expect(answer).toMatchObject({
      status: 200,
      data: { user: { id: user.id, username: user.email, name: user.name, isAdmin: false } },
    });
  });

  it("a session holding only a user id without its login time is nobody", async () => {
    const { cookie } = await customerCookie("bare");
    expect((await apiCall(userRoute, "GET", "/api/user", { cookie })).status).toBe(401);
  });

  it("answers 405 with Allow for another method", async () => {
    const answer = await apiCall(userRoute, "POST", "/api/user", { json: {} });
    expect(answer.status).toBe(405);
    expect(answer.headers.get("Allow")).toBe("GET, HEAD");
  });
});

describe("GET /api/user/orders", () => {
  function orderFor(email: string, number: string) {
    const { id } = db()
      .insert(orders)
      .values({
        statusToken: `tok-${number}-${Math.random()}`,
        orderNumber: number,
        checkoutId: `api-acc-${number}`,
        paymentIntentId: `pi_api_acc_${number}`,
        contestName: "APIテスト大会",
        customerEmail: email,
        customerName: "テスト 太郎",
        totalAmount: 3000,
        lineCount: 1,
        paidAt: new Date(),
      })
      .returning({ id: orders.id })
      .get();
    db()
      .insert(orderLines)
      .values({
        orderId: id,
        lineNumber: `${number}-1`,
        contestName: "APIテスト大会",
        category: "A部門",
        athleteNumber: 7,
        athleteName: "選手7",
        style: "縦",
        orientation: "vertical",
        price: 3000,
      })
      .run();
  }

  it("lists the account's own orders only, as the purchase history does", async () => {
    const { email, cookie } = await loggedIn("orders");
    const number = `7${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;
    orderFor(email, number);
    orderFor(fresh("stranger").email, `8${number.slice(1)}`);
    const answer = await apiCall(ordersRoute, "GET", "/api/user/orders", { cookie });
    expect(answer.status).toBe(200);
    const data = answer.data as { orders: { orderNumber: string }[] };
    expect(data.orders.map((order) => order.orderNumber)).toEqual([number]);
    expect(data.orders[0]).toMatchObject({
      customerEmail: email,
      status: "制作中",
      category: "A部門",
      athleteNumber: 7,
      style: "縦",
      price: 3000,
      videoDownloadUrl: null,
    });
  });

  it("401 for nobody", async () => {
    expect((await apiCall(ordersRoute, "GET", "/api/user/orders")).status).toBe(401);
  });
});

describe("POST /api/login", () => {
  it("logs a customer in with the session cookie and the spec's answer fields", async () => {
    const { email, ip } = fresh("login");
    const user = await createUser(email, PASSWORD);
    const answer = await post(loginRoute, "/api/login", { email, password: PASSWORD }, undefined, ip);
    expect(answer).toMatchObject({
      status: 200,
      data: {
        user: { username: email, isAdmin: false },
        requiresTwoFactor: false,
        remainingAttempts: null,
        lockoutUntil: null,
        message: "ログインしました",
      },
    });
    const me = await apiCall(userRoute, "GET", "/api/user", { cookie: sessionOf(answer) });
    expect(me.data).toMatchObject({ user: { id: user.id } });
  });

  it("attack: password guessing through the API counts with the screen's on one lock, and every attempt is recorded", async () => {
    const { email, ip } = fresh("lockout");
    await createUser(email, PASSWORD);
    const first = await post(loginRoute, "/api/login", { email, password: "wrong-one" }, undefined, ip);
    expect(first).toMatchObject({
      status: 401,
      data: {
        message: "メールアドレスまたはパスワードが正しくありません",
        remainingAttempts: 9,
        lockoutUntil: null,
        requiresTwoFactor: false,
      },
    });
    // The screen counts on the same account: the API is no way around the lock.
    for (let i = 0; i < 8; i++)
      await callRoute(loginScreen.action, loginPost(ip, { email, password: "wrong-one" }));
    const tenth = await post(loginRoute, "/api/login", { email, password: "wrong-one" }, undefined, ip);
    expect(tenth.status).toBe(423);
    expect(tenth.data).toMatchObject({ error: "アカウントロック", lockoutUntil: expect.any(String) });
    const right = await post(loginRoute, "/api/login", { email, password: PASSWORD }, undefined, ip);
    expect(right.status).toBe(423);
    const rows = db()
      .select({ outcome: loginEvents.outcome })
      .from(loginEvents)
      .where(and(eq(loginEvents.email, email), eq(loginEvents.kind, "customer")))
      .all();
    expect(rows.map((row) => row.outcome)).toEqual([...Array(10).fill("failure"), "locked"]);
  });

  it("shares the per-address limit with the screen (429 with Retry-After)", async () => {
    const ip = "198.18.9.250";
    for (let i = 0; i < 30; i++)
      await callRoute(loginScreen.action, loginPost(ip, { email: fresh("ip").email, password: "x" }));
    const answer = await post(
      loginRoute,
      "/api/login",
      { email: fresh("ip").email, password: "x" },
      undefined,
      ip,
    );
    expect(answer.status).toBe(429);
    expect(answer.headers.get("Retry-After")).toBeTruthy();
  });

  it("asks for the second factor of an admin, then takes twoFactorCode with the password again", async () => {
    const { email, ip } = fresh("admin");
    await createUser(email, PASSWORD, { isAdmin: true });
    const first = await post(loginRoute, "/api/login", { email, password: PASSWORD }, undefined, ip);
    expect(first).toMatchObject({ status: 200, data: { requiresTwoFactor: true, user: null } });
    const cookie = sessionOf(first);
    expect((await apiCall(userRoute, "GET", "/api/user", { cookie })).status).toBe(401);
    const code = await mailedCode(email);
    const wrong = await post(
      loginRoute,
      "/api/login",
      { email, password: PASSWORD, twoFactorCode: wrongCode(code) },
      cookie,
      ip,
    );
    expect(wrong).toMatchObject({ status: 401, data: { requiresTwoFactor: true } });
    const done = await post(
      loginRoute,
      "/api/login",
      { email, password: PASSWORD, twoFactorCode: code },
      sessionOf(wrong) || cookie,
      ip,
    );
    expect(done).toMatchObject({ status: 200, data: { user: { username: email, isAdmin: true } } });
  });

  it("attack: a right code with a wrong password logs nobody in", async () => {
    const { email, ip } = fresh("admin-wrong-password");
    await createUser(email, PASSWORD, { isAdmin: true });
    const first = await post(loginRoute, "/api/login", { email, password: PASSWORD }, undefined, ip);
    const code = await mailedCode(email);
    const answer = await post(
      loginRoute,
      "/api/login",
      { email, password: "not-the-password", twoFactorCode: code },
      sessionOf(first),
      ip,
    );
    expect(answer.status).toBe(401);
  });

  it("refuses bad input with 422 fields, malformed JSON with 400, GET with 405", async () => {
    const bad = await post(loginRoute, "/api/login", { email: "not-an-address", password: "" });
    expect(bad.status).toBe(422);
    expect(bad.data).toMatchObject({
      fields: {
        email: ["メールアドレスの形式が正しくありません"],
        password: ["パスワードを入力してください"],
      },
    });
    const code = await post(loginRoute, "/api/login", {
      email: "a@example.jp",
      password: "x",
      twoFactorCode: "12",
    });
    expect(code).toMatchObject({ status: 422, data: { fields: { twoFactorCode: expect.any(Array) } } });
    const typed = await post(loginRoute, "/api/login", { email: 5, password: ["x"] });
    expect(typed.status).toBe(422);
    const malformed = await apiCall(loginRoute, "POST", "/api/login", {
      headers: { "Content-Type": "application/json" },
      json: undefined,
    });
    expect([400, 422]).toContain(malformed.status);
    const request = new Request("http://shop.test/api/login", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{not json",
    });
    expect((await callRoute(loginRoute.action as never, request)).status).toBe(400);
    expect((await apiCall(loginRoute, "GET", "/api/login")).status).toBe(405);
  });
});

describe("registration", () => {
  it("POST /api/register mails the code; the code makes the account (nobody logged in, as on the screen)", async () => {
    const { email, ip } = fresh("register");
    const started = await post(
      registerRoute,
      "/api/register",
      { email, name: "登録 花子", password: PASSWORD, confirmPassword: PASSWORD, agreesToTerms: true },
      undefined,
      ip,
    );
    expect(started).toMatchObject({ status: 202, data: { email } });
    const cookie = sessionOf(started);
    const code = await mailedCode(email);
    const wrong = await post(
      verifyRegistrationRoute,
      "/api/verify-registration-code",
      { email, code: wrongCode(code) },
      cookie,
    );
    expect(wrong.status).toBe(400);
    const done = await post(
      verifyRegistrationRoute,
      "/api/verify-registration-code",
      { email, code },
      cookie,
    );
    expect(done).toMatchObject({
      status: 200,
      data: { user: { username: email, isAdmin: false }, loggedIn: false },
    });
    const user = userByEmail(email);
    expect(user?.name).toBe("登録 花子");
    expect(await verifyPassword(PASSWORD, user!.passwordHash)).toBe(true);
    expect((await apiCall(userRoute, "GET", "/api/user", { cookie: sessionOf(done) })).status).toBe(401);
  });

  it("POST /api/send-registration-code is the register form (terms still required); again, it resends", async () => {
    const { email, ip } = fresh("send-code");
    const noTerms = await post(
      sendRegistrationRoute,
      "/api/send-registration-code",
      { email, password: PASSWORD, name: "名前" },
      undefined,
      ip,
    );
    expect(noTerms).toMatchObject({
      status: 422,
      data: { fields: { agreesToTerms: ["利用規約とプライバシーポリシーへの同意が必要です"] } },
    });
    const weak = await post(
      sendRegistrationRoute,
      "/api/send-registration-code",
      { email, password: "short", name: "名前", agreesToTerms: true },
      undefined,
      ip,
    );
    expect(weak.status).toBe(422);
    expect(Object.keys((weak.data as { fields: object }).fields)).toContain("password");
    const sent = await post(
      sendRegistrationRoute,
      "/api/send-registration-code",
      { email, password: PASSWORD, name: "名前", agreesToTerms: true },
      undefined,
      ip,
    );
    expect(sent.status).toBe(202);
    const cookie = sessionOf(sent);
    const again = await post(
      sendRegistrationRoute,
      "/api/send-registration-code",
      { email, password: PASSWORD, name: "名前" },
      cookie,
      ip,
    );
    // The code page's resend: once a minute.
    expect(again.status).toBe(429);
    expect(again.headers.get("Retry-After")).toBeTruthy();
  });

  it("an address already registered gets the same answer and no account is made", async () => {
    const { email, ip } = fresh("existing");
    await createUser(email, PASSWORD);
    const answer = await post(
      registerRoute,
      "/api/register",
      {
        email,
        name: "別人",
        password: "Other-Pass-9876",
        confirmPassword: "Other-Pass-9876",
        agreesToTerms: true,
      },
      undefined,
      ip,
    );
    expect(answer.status).toBe(202);
    await vi.waitFor(() => expect(mailsTo(email).length).toBeGreaterThan(0));
    expect(mailsTo(email).at(-1)?.text).not.toMatch(/\b\d{6}\b.*認証コード/);
  });

  it("attack: verify-registration-code for another address than the session's registration is refused (no code checked)", async () => {
    const { email, ip } = fresh("other-address");
    const started = await post(
      registerRoute,
      "/api/register",
      { email, name: "花子", password: PASSWORD, confirmPassword: PASSWORD, agreesToTerms: true },
      undefined,
      ip,
    );
    const code = await mailedCode(email);
    const other = await post(
      verifyRegistrationRoute,
      "/api/verify-registration-code",
      { email: "someone@example.jp", code },
      sessionOf(started),
    );
    expect(other.status).toBe(409);
    const none = await post(verifyRegistrationRoute, "/api/verify-registration-code", { email, code });
    expect(none.status).toBe(409);
    expect(userByEmail(email)).toBeUndefined();
    const bad = await post(
      verifyRegistrationRoute,
      "/api/verify-registration-code",
      { email, code: "12ab" },
      sessionOf(started),
    );
    expect(bad).toMatchObject({
      status: 422,
      data: { fields: { code: ["6桁の認証コードを入力してください"] } },
    });
  });

  it("the register calls share the per-client-address limit with the screen", async () => {
    const ip = "198.18.10.10";
    for (let i = 0; i < 10; i++) {
      const { email } = fresh("many");
      const answer = await post(
        registerRoute,
        "/api/register",
        { email, name: "花子", password: PASSWORD, confirmPassword: PASSWORD, agreesToTerms: true },
        undefined,
        ip,
      );
      expect(answer.status).toBe(202);
    }
    const over = await post(
      registerRoute,
      "/api/register",
      {
        email: fresh("many").email,
        name: "花子",
        password: PASSWORD,
        confirmPassword: PASSWORD,
        agreesToTerms: true,
      },
      undefined,
      ip,
    );
    expect(over.status).toBe(429);
  });

  it("GET /api/verify-email: a bad token is 400 with the page's message", async () => {
    expect(await apiCall(verifyEmailRoute, "GET", "/api/verify-email")).toMatchObject({
      status: 400,
      data: { message: "無効なトークンです" },
    });
    expect((await apiCall(verifyEmailRoute, "GET", "/api/verify-email?token=nope")).status).toBe(400);
  });

  it("GET /api/verify-email: the mailed link makes the account", async () => {
    const { email, ip } = fresh("link");
    await post(
      registerRoute,
      "/api/register",
      { email, name: "花子", password: PASSWORD, confirmPassword: PASSWORD, agreesToTerms: true },
      undefined,
      ip,
    );
    await mailedCode(email);
    const token = /verify-email\?token=([\w-]+)/.exec(mailsTo(email).at(-1)?.text ?? "")?.[1];
    expect(token).toBeDefined();
    const answer = await apiCall(verifyEmailRoute, "GET", `/api/verify-email?token=${token}`);
    expect(answer).toMatchObject({ status: 200, data: { email, alreadyVerified: false } });
    expect(userByEmail(email)).toBeDefined();
  });
});

describe("password change", () => {
  it("code, then the new password; every call 401 for nobody", async () => {
    for (const [route, path] of [
      [sendChangeCodeRoute, "/api/send-password-change-code"],
      [verifyChangeCodeRoute, "/api/verify-password-change-code"],
      [changePasswordRoute, "/api/change-password"],
    ] as const)
      expect((await post(route, path, {})).status).toBe(401);

    const { email, cookie, user } = await loggedIn("change");
    const early = await post(
      changePasswordRoute,
      "/api/change-password",
      { newPassword: "New-Pass-5678" },
      cookie,
    );
    expect(early.status).toBe(409);
    const sent = await post(sendChangeCodeRoute, "/api/send-password-change-code", {}, cookie);
    expect(sent.status).toBe(200);
    const code = await mailedCode(email);
    expect(
      (await post(verifyChangeCodeRoute, "/api/verify-password-change-code", { code: "12" }, cookie)).status,
    ).toBe(422);
    const wrong = await post(
      verifyChangeCodeRoute,
      "/api/verify-password-change-code",
      { code: wrongCode(code) },
      cookie,
    );
    expect(wrong).toMatchObject({
      status: 400,
      data: { message: "認証コードが正しくありません（あと4回）" },
    });
    const verified = await post(verifyChangeCodeRoute, "/api/verify-password-change-code", { code }, cookie);
    expect(verified.status).toBe(200);
    const next = sessionOf(verified) || cookie;
    const weak = await post(changePasswordRoute, "/api/change-password", { newPassword: "short" }, next);
    expect(weak.status).toBe(422);
    const changed = await post(
      changePasswordRoute,
      "/api/change-password",
      { currentPassword: "ignored", newPassword: "New-Pass-5678" },
      next,
    );
    expect(changed).toMatchObject({ status: 200, data: { message: "パスワードを変更しました" } });
    expect(await verifyPassword("New-Pass-5678", userByEmail(email)!.passwordHash)).toBe(true);
    expect(user.id).toBeGreaterThan(0);
  });
});
