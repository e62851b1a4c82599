import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { setClock } from "~/server/core/clock.server";
import { db } from "~/server/db/client.server";
import { mailLinks, orders, users } from "~/server/db/schema";
import { logIn } from "~/server/auth/login/session-login.server";
import { getCurrentUser } from "~/server/auth/users.server";
import { verifyPassword } from "~/server/auth/password.server";
import { checkPassword } from "~/server/auth/login/password-step.server";
import { purchaseHistory } from "~/server/orders/customer/purchase-history.server";
import { PASSWORD_RESET_MESSAGES, requestPasswordReset } from "~/server/accounts/password-reset.server";
import {
  createUser,
  loginPost,
  newSession,
  requestFrom,
  roundTrip,
  userByEmail,
} from "../../helpers/accounts";
import { callRoute, type RouteResult } from "../../helpers/route";
import { formRequest, seedContest } from "../../helpers/shop";
import { smtpServerForThisFile } from "../../helpers/smtp-per-file";
import { payVerifiedCheckout } from "../../helpers/checkout-flow";

const MINUTE = 60_000;

const smtp = smtpServerForThisFile();
let ipCounter = 0;
/** A fresh client address per test, so the per-origin limit of one test does not reach the next. */
function freshIp() {
  ipCounter++;
  return `203.0.113.${ipCounter}`;
}

async function mailsTo(address: string, count: number) {
  for (let i = 0; i < 200 && smtp.received.filter((m) => m.to.includes(address)).length < count; i++)
    await new Promise((r) => setTimeout(r, 10));
  return smtp.received.filter((m) => m.to.includes(address));
}

function linkIn(text: string, path: string): string {
  const match = new RegExp(`https?://[^\\s]+${path}\\?token=([A-Za-z0-9_-]+)`).exec(text);
  if (!match?.[1]) throw new Error(`no ${path} link in the mail`);
  return match[1];
}

async function forgotPassword(email: string, ip: string): Promise<RouteResult> {
  const route = await import("~/routes/account/forgot-password");
  const request = formRequest("/forgot-password", [["email", email]]);
  // The caller's address as the edge hands it on (and as the proxy TRUST_PROXY=1 names would).
  request.headers.set("X-Forwarded-For", ip);
  request.headers.set("X-Shop-Client-Address", ip);
  return callRoute(route.action, request);
}

async function setNewPassword(token: string, password: string, confirm = password): Promise<RouteResult> {
  const route = await import("~/routes/account/reset-password");
  return callRoute(
    route.action,
    formRequest(`/reset-password?token=${token}`, [
      ["token", token],
      ["password", password],
      ["confirmPassword", confirm],
    ]),
  );
}

async function openResetPage(token: string): Promise<RouteResult> {
  const route = await import("~/routes/account/reset-password");
  return callRoute(route.loader, new Request(`http://shop.test/reset-password?token=${token}`));
}

async function resetLinkFor(email: string): Promise<string> {
  const resetMails = () =>
    smtp.received.filter((m) => m.to.includes(email) && m.subject.includes("パスワード再設定のご案内"));
  const before = resetMails().length;
  expect((await forgotPassword(email, freshIp())).status).toBe(200);
  for (let i = 0; i < 200 && resetMails().length <= before; i++) await new Promise((r) => setTimeout(r, 10));
  return linkIn(resetMails().at(-1)?.text ?? "", "/reset-password");
}

describe("forgotten password", () => {
  it("forgotten password: same answer whether or not the address has an account", async () => {
    await createUser("has-account@example.jp", "Old-Pass-123");
    const withAccount = await forgotPassword("has-account@example.jp", freshIp());
    const without = await forgotPassword("no-account@example.jp", freshIp());
    expect(withAccount.status).toBe(200);
    expect(without.status).toBe(200);
    const text = (result: RouteResult) => (result.data as { sent: string | null }).sent;
    expect(text(withAccount)).toBe(PASSWORD_RESET_MESSAGES.requested);
    expect(text(without)).toBe(text(withAccount));
    // The whole answer is the same, the address typed (kept in the field) aside.
    const answer = (result: RouteResult, email: string) =>
      JSON.stringify(result.data).replaceAll(email, "ADDRESS");
    expect(answer(without, "no-account@example.jp")).toBe(answer(withAccount, "has-account@example.jp"));
    expect(JSON.stringify(without.data)).toContain("no-account@example.jp");

    const mails = await mailsTo("has-account@example.jp", 1);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe("【コンテスト動画ショップ】パスワード再設定のご案内");
    expect(mails[0]?.text).toContain("30分間");
    expect(mails[0]?.html).toContain("/reset-password?token=");
    await new Promise((r) => setTimeout(r, 100));
    expect(smtp.received.filter((m) => m.to.includes("no-account@example.jp"))).toHaveLength(0);

    // The answer does not wait on the mail server, so the time tells nothing either.
    const timed = async (email: string) => {
      const started = performance.now();
      await forgotPassword(email, freshIp());
      return performance.now() - started;
    };
    const slowest = Math.max(
      ...(await Promise.all([timed("has-account@example.jp"), timed("nobody@example.jp")])),
    );
    expect(slowest).toBeLessThan(500);
  });

  it("stores only a hash of the 256-bit token, with its expiry; a new request replaces the older link", async () => {
    const user = await createUser("hashed@example.jp", "Old-Pass-123");
    const first = await resetLinkFor("hashed@example.jp");
    expect(Buffer.from(first, "base64url")).toHaveLength(32);
    const rows = db().select().from(mailLinks).where(eq(mailLinks.userId, user.id)).all();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.tokenHash).toBe(crypto.createHash("sha256").update(first).digest("hex"));
    expect(JSON.stringify(rows)).not.toContain(first);
    expect(rows[0]!.expiresAt.getTime() - rows[0]!.createdAt.getTime()).toBe(30 * MINUTE);

    const second = await resetLinkFor("hashed@example.jp");
    expect((await openResetPage(first)).status).toBe(400);
    expect((await openResetPage(second)).status).toBe(200);
  });

  it("sets the new password once, clears the lockout, mails the notice; the person then logs in", async () => {
    const user = await createUser("reset@example.jp", "Old-Pass-123", {
      failedLoginCount: 10,
      lockedUntil: new Date(Date.now() + 15 * MINUTE),
    });
    const token = await resetLinkFor("reset@example.jp");
    expect(await openResetPage(token)).toMatchObject({ status: 200, data: { token, problem: null } });

    // The registration's rules and its confirmation field.
    const weak = await setNewPassword(token, "abcdefgh");
    expect(weak.status).toBe(400);
    expect(JSON.stringify(weak.data)).toContain("英大文字・英小文字・数字のうち2種類以上");
    const mismatch = await setNewPassword(token, "New-Pass-456", "New-Pass-457");
    expect(JSON.stringify(mismatch.data)).toContain("パスワードが一致しません");

    const done = await setNewPassword(token, "New-Pass-456");
    expect(done.status).toBe(302);
    expect(done.location).toBe("/login");
    const stored = userByEmail("reset@example.jp");
    expect(stored).toMatchObject({ failedLoginCount: 0, lockedUntil: null });
    expect(await verifyPassword("New-Pass-456", stored?.passwordHash ?? "")).toBe(true);
    expect(await verifyPassword("Old-Pass-123", stored?.passwordHash ?? "")).toBe(false);
    const mails = await mailsTo("reset@example.jp", 2);
    expect(mails.at(-1)?.subject).toBe("【コンテスト動画ショップ】パスワードを変更しました");

    const step = await checkPassword(
      loginPost("198.51.100.7", { email: "reset@example.jp", password: "New-Pass-456" }),
      "customer",
    );
    expect(step.checked && step.result.ok).toBe(true);
    expect(user.id).toBe(stored?.id);
  });

  it("forgotten password: an expired, used or unknown link shows a Japanese page with a way to ask again (400)", async () => {
    await createUser("links@example.jp", "Old-Pass-123");
    const t = Date.now();
    setClock(() => t);
    const expired = await resetLinkFor("links@example.jp");
    setClock(() => t + 30 * MINUTE + 1);
    expect(await openResetPage(expired)).toMatchObject({
      status: 400,
      data: { token: null, problem: PASSWORD_RESET_MESSAGES.expired },
    });
    expect((await setNewPassword(expired, "New-Pass-456")).data).toMatchObject({
      problem: PASSWORD_RESET_MESSAGES.expired,
    });
    setClock(null);

    const used = await resetLinkFor("links@example.jp");
    expect((await setNewPassword(used, "New-Pass-456")).status).toBe(302);
    expect(await setNewPassword(used, "Other-Pass-789")).toMatchObject({
      status: 400,
      data: { problem: PASSWORD_RESET_MESSAGES.used },
    });
    expect(await verifyPassword("New-Pass-456", userByEmail("links@example.jp")?.passwordHash ?? "")).toBe(
      true,
    );

    for (const token of ["", "x".repeat(43), "%00", "a".repeat(5000)]) {
      expect(await openResetPage(encodeURIComponent(token))).toMatchObject({
        status: 400,
        data: { problem: PASSWORD_RESET_MESSAGES.unknown },
      });
    }
    const noToken = await import("~/routes/account/reset-password");
    expect((await callRoute(noToken.loader, new Request("http://shop.test/reset-password"))).status).toBe(
      400,
    );
    expect((await setNewPassword("x".repeat(43), "New-Pass-456")).status).toBe(400);
  });

  it("forgotten password ends every session", async () => {
    const row = await createUser("sessions@example.jp", "Old-Pass-123");
    const phone = await newSession();
    const laptop = await newSession();
    logIn(phone, row);
    logIn(laptop, row);
    const phoneAfter = await roundTrip(phone);
    const laptopAfter = await roundTrip(laptop);
    expect(await getCurrentUser(phoneAfter)).toMatchObject({ id: row.id });

    const token = await resetLinkFor("sessions@example.jp");
    expect((await setNewPassword(token, "New-Pass-456")).status).toBe(302);
    expect(await getCurrentUser(await roundTrip(phoneAfter))).toBeNull();
    expect(await getCurrentUser(await roundTrip(laptopAfter))).toBeNull();
  });

  it("forgotten password: requests are limited per address and requester, and per origin (429, the same for any address)", async () => {
    await createUser("limited@example.jp", "Old-Pass-123");
    const asker = freshIp();
    for (let i = 0; i < 5; i++) expect((await forgotPassword("limited@example.jp", asker)).status).toBe(200);
    const sixth = await forgotPassword("limited@example.jp", asker);
    expect(sixth.status).toBe(429);
    expect(JSON.stringify(sixth.data)).toContain(PASSWORD_RESET_MESSAGES.tooMany);
    // An address without an account is limited the same way.
    for (let i = 0; i < 5; i++) await forgotPassword("ghost@example.jp", asker);
    expect((await forgotPassword("ghost@example.jp", asker)).status).toBe(429);
    expect(await mailsTo("limited@example.jp", 5)).toHaveLength(5);

    const ip = freshIp();
    for (let i = 0; i < 20; i++) expect((await forgotPassword(`origin${i}@example.jp`, ip)).status).toBe(200);
    expect((await forgotPassword("origin-last@example.jp", ip)).status).toBe(429);
    expect((await forgotPassword("origin-last@example.jp", freshIp())).status).toBe(200);
  });

  it("mail cap exhaustion: a stranger asking for reset links to a person's address cannot use up the link she needs", async () => {
    await createUser("exhausted@example.jp", "Old-Pass-123");
    const stranger = freshIp();
    for (let i = 0; i < 5; i++)
      expect((await forgotPassword("exhausted@example.jp", stranger)).status).toBe(200);
    expect((await forgotPassword("exhausted@example.jp", stranger)).status).toBe(429);
    expect(await mailsTo("exhausted@example.jp", 5)).toHaveLength(5);

    // The owner, from her own connection, still gets a link, and it works.
    expect((await forgotPassword("exhausted@example.jp", freshIp())).status).toBe(200);
    const mails = await mailsTo("exhausted@example.jp", 6);
    expect(mails).toHaveLength(6);
    const token = linkIn(mails.at(-1)?.text ?? "", "/reset-password");
    expect((await setNewPassword(token, "New-Pass-456")).status).toBe(302);
  });

  it("an admin account is not reset by mail: the same answer, and a mail that says so without a link", async () => {
    await createUser("admin-forgot@example.jp", "Old-Pass-123", { isAdmin: true });
    const answer = await forgotPassword("admin-forgot@example.jp", freshIp());
    expect(answer.status).toBe(200);
    const mails = await mailsTo("admin-forgot@example.jp", 1);
    expect(mails[0]?.text).toContain("管理者アカウントのパスワードはメールのリンクでは再設定できません");
    expect(mails[0]?.text).not.toContain("token=");
    expect(
      db()
        .select()
        .from(mailLinks)
        .all()
        .some((l) => l.userId === userByEmail("admin-forgot@example.jp")?.id),
    ).toBe(false);
  });

  it("bad input gets a Japanese message and 400", async () => {
    expect(await forgotPassword("not-an-address", freshIp())).toMatchObject({ status: 400 });
    const route = await import("~/routes/account/forgot-password");
    const empty = await callRoute(route.action, formRequest("/forgot-password", []));
    expect(empty.status).toBe(400);
    expect(JSON.stringify(empty.data)).toContain("メールアドレスを入力してください");
    expect(requestPasswordReset(requestFrom(freshIp()), "  Has-Account@Example.jp ")).toEqual({ ok: true });
  });
});

/** A checkout that was verified with the six-digit code and chose the auto-login account, paid now. */
function payAutoLoginCheckout(email: string) {
  return payVerifiedCheckout(seedContest(), {
    customerEmail: email,
    customerName: "購入 太郎",
    autoLogin: true,
    // The account's password is not what these tests are about; the route tests log in through the session.
    pendingPasswordHash: "scrypt$unused",
  });
}

function guestOrder(email: string) {
  const n = crypto.randomBytes(4).readUInt32BE() % 10_000_000;
  return db()
    .insert(orders)
    .values({
      orderNumber: String(80_000_000 + n),
      checkoutId: `guest-${n}`,
      paymentIntentId: `pi_guest_${n}`,
      contestName: "春の発表会",
      customerEmail: email,
      customerName: "被害 花子",
      totalAmount: 5000,
      createdAt: new Date(Date.now() - 86_400_000),
    })
    .returning()
    .get();
}

describe("earlier guest orders and the checkout's auto-login account", () => {
  it("an auto-login account under someone else's address does not see their earlier guest orders until the address is confirmed by the mailed link", async () => {
    const victim = "victim6@example.jp";
    const earlier = guestOrder(victim);
    // The attacker guessed the checkout's code for the victim's address and chose the auto-login account.
    const made = payAutoLoginCheckout(victim);
    const account = userByEmail(victim)!;
    expect(made.createdUserId).toBe(account.id);

    const history = purchaseHistory(victim, 1);
    expect(history.orders.map((o) => o.orderNumber)).toEqual([made.order.orderNumber]);
    expect(history.orders.map((o) => o.orderNumber)).not.toContain(earlier.orderNumber);

    // The address's owner gets a link; it works only for the account it was made for, logged in.
    const mails = await mailsTo(victim, 2);
    const mail = mails.find((m) => m.subject.includes("以前のご注文"));
    expect(mail?.text).toContain("アカウント作成より前のご注文が1件見つかりました");
    const token = linkIn(mail?.text ?? "", "/account/earlier-orders");
    const route = await import("~/routes/account/earlier-orders");

    // Not logged in (the victim opening the link): the login page, nothing joined.
    const anonymous = await callRoute(
      route.loader,
      new Request(`http://shop.test/account/earlier-orders?token=${token}`),
    );
    expect(anonymous.status).toBe(302);
    expect(anonymous.location).toMatch(/^\/login\?redirectTo=/);
    // Logged in without the mail (the attacker): a made-up token joins nothing.
    const attacker = await newSession();
    logIn(attacker, account);
    const cookie = (await (await import("~/server/http/session.server")).commitSession(attacker)).split(
      ";",
    )[0]!;
    const guessed = await callRoute(
      route.action,
      formRequest("/account/earlier-orders", [["token", "x".repeat(43)]], cookie),
    );
    expect(guessed.status).toBe(400);
    expect(purchaseHistory(victim, 1).total).toBe(1);

    // The account's own login with the mailed link (the legitimate customer): the orders join.
    const page = await callRoute(
      route.loader,
      new Request(`http://shop.test/account/earlier-orders?token=${token}`, { headers: { Cookie: cookie } }),
    );
    expect(page).toMatchObject({ status: 200, data: { orderCount: 1 } });
    const joined = await callRoute(
      route.action,
      formRequest("/account/earlier-orders", [["token", token]], cookie),
    );
    expect(joined.location).toBe("/purchase-history");
    expect(purchaseHistory(victim, 1).orders.map((o) => o.orderNumber)).toEqual([
      made.order.orderNumber,
      earlier.orderNumber,
    ]);
    // Once.
    const again = await callRoute(
      route.action,
      formRequest("/account/earlier-orders", [["token", token]], cookie),
    );
    expect(again.status).toBe(400);
  });

  it("the real owner takes the account back with a password reset, which confirms the address and logs the maker out", async () => {
    const victim = "owner6@example.jp";
    const earlier = guestOrder(victim);
    payAutoLoginCheckout(victim);
    const account = userByEmail(victim)!;
    const makersSession = await newSession();
    logIn(makersSession, account);
    const makers = await roundTrip(makersSession);
    expect(purchaseHistory(victim, 1).total).toBe(1);

    const token = await resetLinkFor(victim);
    expect((await setNewPassword(token, "Owners-Pass-1")).status).toBe(302);
    expect(await getCurrentUser(await roundTrip(makers))).toBeNull();
    expect(purchaseHistory(victim, 1).orders.map((o) => o.orderNumber)).toContain(earlier.orderNumber);
    expect(userByEmail(victim)?.addressUnconfirmed).toBe(false);
  });

  it("an auto-login account for a new address gets its order at once and no earlier-orders mail", async () => {
    const email = "fresh6@example.jp";
    const made = payAutoLoginCheckout(email);
    expect(purchaseHistory(email, 1).orders.map((o) => o.orderNumber)).toEqual([made.order.orderNumber]);
    expect(made.addressMailId ?? null).toBeNull();
    // Orders the account places later are its own.
    const user = userByEmail(email)!;
    expect(db().select().from(orders).where(eq(orders.userId, user.id)).all()).toHaveLength(1);
    expect(db().select().from(users).where(eq(users.id, user.id)).get()?.addressUnconfirmed).toBe(true);
  });

  it("a registered account (its address proven by the registration code) still sees every order with its address", async () => {
    const email = "registered6@example.jp";
    const earlier = guestOrder(email);
    await createUser(email, "Old-Pass-123");
    expect(purchaseHistory(email, 1).orders.map((o) => o.orderNumber)).toEqual([earlier.orderNumber]);
  });
});
