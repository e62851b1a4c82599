import { and, eq } from "drizzle-orm";
import { authenticator } from "otplib";
import { describe, expect, it } from "vitest";
import { action as adminLoginAction } from "~/routes/admin/login";
import { action as secondFactorAction, loader as secondFactorLoader } from "~/routes/admin/second-factor";
import { setClock } from "~/server/core/clock.server";
import { seal } from "~/server/core/secret-box.server";
import { db } from "~/server/db/client.server";
import { loginEvents } from "~/server/db/schema";
import { createUser, requestFrom, userByEmail } from "../../../helpers/accounts";
import { callRoute, sessionOf } from "../../../helpers/route";
import { smtpServerForThisFile } from "../../../helpers/smtp-per-file";

const T0 = Date.UTC(2025, 5, 1, 3, 0, 0);
const MINUTE = 60_000;
const PASSWORD = "Admin-Pass-1234";

const smtp = smtpServerForThisFile();
function post(url: string, fields: Record<string, string>, cookie = "", ip = "198.51.100.80") {
  return requestFrom(ip, {
    url: `http://localhost${url}`,
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...(cookie ? { Cookie: cookie } : {}) },
  });
}

/** The password step through /admin-login, then the code page's first view (which mails the code). */
async function passwordStep(email: string) {
  const login = await callRoute(adminLoginAction, post("/admin-login", { email, password: PASSWORD }));
  expect(login).toMatchObject({ status: 302, location: "/admin-2fa-verify" });
  const cookie = sessionOf(login);
  const page = await callRoute(
    secondFactorLoader,
    requestFrom("198.51.100.80", { url: "http://localhost/admin-2fa-verify", headers: { Cookie: cookie } }),
  );
  expect(page.status).toBe(200);
  return cookie;
}

function enterCode(cookie: string, code: string) {
  return callRoute(secondFactorAction, post("/admin-2fa-verify", { intent: "verify", code }, cookie));
}

function mailedCode(address: string): string {
  const mail = smtp.received.filter((m) => m.to.includes(address)).at(-1);
  const code = /\b(\d{6})\b/.exec(mail?.text ?? "")?.[1];
  if (!code) throw new Error("no code mail");
  return code;
}

function wrongCode(right: string): string {
  return right === "000000" ? "111111" : "000000";
}

function outcomes(email: string) {
  return db()
    .select({ outcome: loginEvents.outcome })
    .from(loginEvents)
    .where(and(eq(loginEvents.email, email), eq(loginEvents.kind, "admin")))
    .orderBy(loginEvents.id)
    .all()
    .map((row) => row.outcome);
}

describe("admin second factor", () => {
  it("wrong e-mail codes count per account across logins; the 5th locks the account for 15 minutes with 423, the right code included", async () => {
    setClock(() => T0);
    const email = "guess-target@example.jp";
    await createUser(email, PASSWORD, { isAdmin: true });

    // Three wrong codes on the first login's code...
    let cookie = await passwordStep(email);
    let code = mailedCode(email);
    for (let i = 1; i <= 3; i++) {
      const wrong = await enterCode(cookie, wrongCode(code));
      expect(wrong.status).toBe(401);
    }
    // ...then a new login (a new code) brings no new tries.
    setClock(() => T0 + 2 * MINUTE);
    cookie = await passwordStep(email);
    code = mailedCode(email);
    const fourth = await enterCode(cookie, wrongCode(code));
    expect(fourth).toMatchObject({
      status: 401,
      data: { warning: expect.stringContaining("残り試行回数: 1回") },
    });
    const fifth = await enterCode(cookie, wrongCode(code));
    expect(fifth).toMatchObject({
      status: 423,
      data: { lockedUntil: T0 + 17 * MINUTE, message: expect.stringContaining("ロックしました") },
    });
    expect(userByEmail(email)?.lockedUntil).toEqual(new Date(T0 + 17 * MINUTE));

    // Locked: the right code, a resend and the password step are all refused.
    expect(await enterCode(cookie, code)).toMatchObject({ status: 423 });
    const resend = await callRoute(
      secondFactorAction,
      post("/admin-2fa-verify", { intent: "resend" }, cookie),
    );
    expect(resend.status).toBe(423);
    const mailsBefore = smtp.received.length;
    const again = await callRoute(adminLoginAction, post("/admin-login", { email, password: PASSWORD }));
    expect(again.status).toBe(423);
    expect(smtp.received.length).toBe(mailsBefore);

    // The security dashboard sees every wrong code; the refused attempts are recorded as locked.
    expect(outcomes(email)).toEqual([
      "success",
      "second-factor-failure",
      "second-factor-failure",
      "second-factor-failure",
      "success",
      "second-factor-failure",
      "second-factor-failure",
      "locked",
      "locked",
    ]);

    // When the lock has run out, a login with the right code goes through and clears the count.
    setClock(() => T0 + 18 * MINUTE);
    cookie = await passwordStep(email);
    const right = await enterCode(cookie, mailedCode(email));
    expect(right).toMatchObject({ status: 302, location: "/admin" });
    expect(userByEmail(email)).toMatchObject({
      secondFactorFailures: 0,
      failedLoginCount: 0,
      lockedUntil: null,
    });
  });

  it("a right code resets the count, so failures must come in a row to lock", async () => {
    setClock(() => T0);
    const email = "careful-admin@example.jp";
    await createUser(email, PASSWORD, { isAdmin: true });
    let cookie = await passwordStep(email);
    for (let i = 0; i < 4; i++) await enterCode(cookie, wrongCode(mailedCode(email)));
    expect(await enterCode(cookie, mailedCode(email))).toMatchObject({ status: 302 });
    setClock(() => T0 + 2 * MINUTE);
    cookie = await passwordStep(email);
    expect(await enterCode(cookie, wrongCode(mailedCode(email)))).toMatchObject({
      status: 401,
      data: { warning: null },
    });
  });

  it("a TOTP code is accepted once, a second login with the same code is refused", async () => {
    setClock(() => T0);
    const email = "totp-admin@example.jp";
    const secret = authenticator.generateSecret(20);
    await createUser(email, PASSWORD, { isAdmin: true, totpSecretEncrypted: seal(secret) });
    authenticator.options = { window: 1, epoch: T0 };
    const code = authenticator.generate(secret);

    const first = await passwordStep(email);
    expect(await enterCode(first, code)).toMatchObject({ status: 302, location: "/admin" });

    // Another client, a few seconds later, within the code's window.
    setClock(() => T0 + 5000);
    const second = await passwordStep(email);
    const replay = await enterCode(second, code);
    expect(replay).toMatchObject({ status: 401, data: { message: "認証コードが正しくありません" } });
    // The replay counts as a failure, as any wrong code does.
    expect(userByEmail(email)?.secondFactorFailures).toBe(1);

    // The next step's code is accepted.
    setClock(() => T0 + 30_000);
    authenticator.options = { window: 1, epoch: T0 + 30_000 };
    expect(await enterCode(second, authenticator.generate(secret))).toMatchObject({ status: 302 });
  });
});
