import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { logIn } from "~/server/auth/login/session-login.server";
import { getCurrentUser } from "~/server/auth/users.server";
import { setClock } from "~/server/core/clock.server";
import { db } from "~/server/db/client.server";
import { rateLimits, sessions, users } from "~/server/db/schema";
import { deleteOldRateLimitWindows, hitRateLimit } from "~/server/http/rate-limit.server";
import { commitSession, deleteExpiredSessions, getSession } from "~/server/http/session.server";
import { redirectWithToast } from "~/server/http/toast.server";
import { createUser, newSession, requestFrom } from "../../helpers/accounts";
import { callRoute, sessionOf } from "../../helpers/route";

const PASSWORD = "Secret-Pass1";

/** A real login through /login's action, as a browser at `ip` would post it: the cookie it got. */
async function logInThroughForm(email: string, ip = "198.51.100.60", cookie = "") {
  const { action } = await import("~/routes/account/login");
  const request = requestFrom(ip, {
    url: "http://shop.test/login",
    method: "POST",
    body: new URLSearchParams({ email, password: PASSWORD }),
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...(cookie ? { Cookie: cookie } : {}) },
  });
  const result = await callRoute(action, request);
  expect(result.status).toBe(302);
  return sessionOf(result);
}

function get(path: string, cookie: string) {
  return new Request(`http://shop.test${path}`, { headers: { Cookie: cookie } });
}

async function adminCookie(admin: { id: number }) {
  const session = await newSession();
  logIn(session, admin, { as: "user", admin: true });
  return (await commitSession(session)).split(";")[0] ?? "";
}

describe("server-side sessions", () => {
  it("a copy of the cookie taken before logout opens neither /account nor /purchase-history afterwards", async () => {
    await createUser("replay@example.jp", PASSWORD);
    const stolen = await logInThroughForm("replay@example.jp");
    const { loader: account } = await import("~/routes/account/account");
    expect((await callRoute(account, get("/account", stolen))).status).toBe(200);

    const { action: logout } = await import("~/routes/account/logout");
    const out = await callRoute(
      logout,
      new Request("http://shop.test/logout", { method: "POST", headers: { Cookie: stolen } }),
    );
    expect(out.status).toBe(302);

    const replay = await callRoute(account, get("/account", stolen));
    expect(replay.status).toBe(302);
    expect(replay.location).toBe("/login?redirectTo=/account");
    const { loader: history } = await import("~/routes/account/purchase-history");
    expect((await callRoute(history, get("/purchase-history", stolen))).location).toMatch(/^\/login/);
  });

  it("a copy of an admin's cookie taken before logout opens neither /admin nor /admin/sales.csv afterwards", async () => {
    const admin = await createUser("replay-admin@example.jp", PASSWORD, { isAdmin: true });
    const stolen = await adminCookie(admin);
    const { loader: sales } = await import("~/routes/admin/sales-csv");
    const { loader: contests } = await import("~/routes/admin/contests");
    expect((await callRoute(sales, get("/admin/sales.csv", stolen))).status).toBe(200);

    const { action: logout } = await import("~/routes/admin/logout");
    await callRoute(
      logout,
      new Request("http://shop.test/admin/logout", { method: "POST", headers: { Cookie: stolen } }),
    );

    for (const [loader, path] of [
      [sales, "/admin/sales.csv"],
      [contests, "/admin"],
    ] as const) {
      const replay = await callRoute(loader, get(path, stolen));
      expect(replay.status, path).toBe(302);
      expect(replay.location, path).toBe("/admin-login");
    }
  });

  it("the cookie carries only a random token: no user id, no login time, nothing the session holds", async () => {
    const user = await createUser("token@example.jp", PASSWORD);
    const cookie = await logInThroughForm("token@example.jp");
    const value = decodeURIComponent(cookie.split("=").slice(1).join("="));
    const payload = Buffer.from(value.slice(0, value.lastIndexOf(".")), "base64").toString("utf8");
    expect(JSON.parse(payload)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(payload).not.toMatch(/userId|loggedInAt/);
    // The table keeps the token's hash, not the token: a copy of the database gives no cookie.
    const token = JSON.parse(payload) as string;
    expect(db().select().from(sessions).where(eq(sessions.id, token)).get()).toBeUndefined();
    expect(db().select().from(sessions).where(eq(sessions.userId, user.id)).all()).toHaveLength(1);
  });

  it("logging in gives a new token: one planted in the browser before the login is not logged in after it", async () => {
    await createUser("fixation@example.jp", PASSWORD);
    // An attacker's own guest session (a checkout under way), planted in the victim's browser.
    const planted = await newSession();
    planted.set("checkoutId", "planted-checkout");
    const plantedCookie = (await commitSession(planted)).split(";")[0] ?? "";

    const afterLogin = await logInThroughForm("fixation@example.jp", "198.51.100.61", plantedCookie);
    expect(afterLogin).not.toBe(plantedCookie);
    expect(await getCurrentUser(get("/", afterLogin))).toMatchObject({ email: "fixation@example.jp" });
    expect(await getCurrentUser(get("/", plantedCookie))).toBeNull();
    // What the guest session held carries on into the login.
    expect((await getSession(get("/", afterLogin))).get("checkoutId")).toBe("planted-checkout");
  });

  it("「他の端末からログアウト」 ends the other browsers' logins and keeps this one", async () => {
    await createUser("devices@example.jp", PASSWORD);
    const phone = await logInThroughForm("devices@example.jp", "198.51.100.62");
    const pc = await logInThroughForm("devices@example.jp", "198.51.100.63");
    const { loader, action } = await import("~/routes/account/account");

    const page = await callRoute(loader, get("/account", phone));
    const devices = (page.data as { devices: { current: boolean; ipAddress: string | null }[] }).devices;
    expect(devices).toHaveLength(2);
    expect(devices[0]).toMatchObject({ current: true, ipAddress: "198.51.100.62" });
    expect(devices[1]).toMatchObject({ current: false, ipAddress: "198.51.100.63" });

    const done = await callRoute(
      action,
      new Request("http://shop.test/account", {
        method: "POST",
        body: new URLSearchParams({ intent: "log-out-elsewhere" }),
        headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: phone },
      }),
    );
    expect(done.status).toBe(303);
    expect(done.location).toBe("/account");
    expect(await getCurrentUser(get("/account", phone))).toMatchObject({ email: "devices@example.jp" });
    expect(await getCurrentUser(get("/account", pc))).toBeNull();
  });

  it("a request still running when its session is ended does not bring the login back", async () => {
    const user = await createUser("race@example.jp", PASSWORD);
    const cookie = await logInThroughForm("race@example.jp");
    const inFlight = await getSession(get("/account", cookie));
    db().delete(sessions).where(eq(sessions.userId, user.id)).run();
    inFlight.set("checkoutId", "late-write");
    const answer = await commitSession(inFlight);
    expect(answer).toMatch(/Expires=Thu, 01 Jan 1970/);
    expect(db().select().from(sessions).where(eq(sessions.userId, user.id)).all()).toHaveLength(0);
  });

  it("deleting the account deletes its sessions; expired sessions are cleaned up", async () => {
    const user = await createUser("gone@example.jp", PASSWORD);
    const cookie = await logInThroughForm("gone@example.jp");
    db().delete(users).where(eq(users.id, user.id)).run();
    expect(db().select().from(sessions).where(eq(sessions.userId, user.id)).all()).toHaveLength(0);
    expect(await getCurrentUser(get("/", cookie))).toBeNull();

    const T0 = Date.now();
    setClock(() => T0);
    const guest = await newSession();
    guest.set("checkoutId", "old-guest");
    const guestCookie = (await commitSession(guest)).split(";")[0] ?? "";
    setClock(() => T0 + 8 * 24 * 60 * 60 * 1000);
    // A week unused: expired, read as a new session, and deleted by the clean-up.
    expect((await getSession(get("/", guestCookie))).get("checkoutId")).toBeUndefined();
    expect(deleteExpiredSessions()).toBeGreaterThanOrEqual(1);
  });

  it("rate-limit counters of windows long over are cleaned up; a current window's stay", async () => {
    const T0 = Date.UTC(2025, 5, 1, 3, 0, 0);
    setClock(() => T0);
    hitRateLimit("clean-up-test", 5, 60 * 60 * 1000);
    setClock(() => T0 + 3 * 24 * 60 * 60 * 1000);
    hitRateLimit("clean-up-test", 5, 60 * 60 * 1000);
    expect(deleteOldRateLimitWindows()).toBeGreaterThanOrEqual(1);
    const left = db().select().from(rateLimits).where(eq(rateLimits.key, "clean-up-test")).all();
    expect(left.map((row) => row.windowStart)).toEqual([T0 + 3 * 24 * 60 * 60 * 1000]);
  });

  it("a toast for the payment page is sent there as a document load, so no discarded data request takes it", async () => {
    const toPayment = await redirectWithToast(
      new Request("http://shop.test/email-verification"),
      "/payment",
      {
        kind: "success",
        title: "認証が完了しました",
      },
    );
    expect(toPayment.headers.get("X-Remix-Reload-Document")).toBe("true");
    const elsewhere = await redirectWithToast(new Request("http://shop.test/login"), "/account", {
      kind: "info",
      title: "ログインしました",
    });
    expect(elsewhere.headers.get("X-Remix-Reload-Document")).toBeNull();
  });

  it("a new visitor with nothing to keep gets no session row", async () => {
    const before = db().select().from(sessions).all().length;
    const { loader } = await import("~/root");
    await callRoute(loader, new Request("http://shop.test/"));
    await commitSession(await newSession());
    expect(db().select().from(sessions).all()).toHaveLength(before);
  });

  it("a page's loaders share one read of the session: what one takes once is not written back by another's commit", async () => {
    const user = await createUser("shared-session@example.jp", PASSWORD);
    const session = await newSession();
    logIn(session, user, { as: "user" });
    session.flash("toast", { kind: "success", title: "認証コードを送信しました" });
    session.flash("passwordChangeNotice", {
      kind: "success",
      message: "認証コードを送信しました",
      at: Date.now(),
    });
    const cookie = (await commitSession(session)).split(";")[0] ?? "";

    // As Remix runs a document GET: the root's and the page's loaders side by side on one Request.
    const request = get("/account/password?step=verify", cookie);
    expect(await getSession(request)).toBe(await getSession(request));
    const { loader: root } = await import("~/root");
    const { loader: page } = await import("~/routes/account/password");
    const [rootAnswer, pageAnswer] = await Promise.all([callRoute(root, request), callRoute(page, request)]);
    expect((rootAnswer.data as { toast: unknown }).toast).toMatchObject({
      title: "認証コードを送信しました",
    });
    expect((pageAnswer.data as { notice: unknown }).notice).toMatchObject({
      message: "認証コードを送信しました",
    });

    // Both were shown once: the next page has neither (each loader committing its own copy wrote the other's back).
    const next = await getSession(get("/account", cookie));
    expect(next.get("toast")).toBeUndefined();
    expect(next.get("passwordChangeNotice")).toBeUndefined();
    // An action's reads stay separate.
    const post = new Request("http://shop.test/account", { method: "POST", headers: { Cookie: cookie } });
    expect(await getSession(post)).not.toBe(await getSession(post));
  });
});
