import { describe, expect, it, vi } from "vitest";
import { ADMIN_LOCKED_MESSAGE } from "~/server/auth/login/admin-login.server";
import { accountLockedUntil } from "~/server/auth/second-factor/account-lock.server";
import { attemptLogin } from "~/server/auth/login/login.server";
import { ADMIN_LOGIN_POLICY, CUSTOMER_LOGIN_POLICY } from "~/server/auth/login/login-policies.server";
import { passwordCheckCaller } from "~/server/auth/login/password-runs.server";
import { protectionSettings } from "~/server/auth/login-audit.server";
import { secondFactorState } from "~/server/auth/second-factor/second-factor.server";
import { securityDashboard, unlockAccount } from "~/server/auth/security-dashboard.server";
import { getCurrentUser } from "~/server/auth/users.server";
import { setClock } from "~/server/core/clock.server";
import { db } from "~/server/db/client.server";
import { checkouts } from "~/server/db/schema";
import { NEW_DRAFTS_PER_ADDRESS } from "~/server/checkout/draft.server";
import { getSession } from "~/server/http/session.server";
import { createUser, loginPost, requestFrom } from "../../../helpers/accounts";
import { callRoute, sessionOf, type RouteResult } from "../../../helpers/route";
import { formRequest, seedContest } from "../../../helpers/shop";

// The default off fly.io, where the app once knew no address and skipped every per-address
// limit. Set before any module reads the configuration.
vi.hoisted(() => {
  process.env.TRUST_PROXY = "none";
});

const T0 = Date.UTC(2026, 10, 27, 3, 0, 0);
const MINUTE = 60_000;
const customerLogin = () => import("~/routes/account/login");
const adminLogin = () => import("~/routes/admin/login");

/** The device cookie a login set, as the browser sends it back. */
function deviceOf(result: RouteResult): string {
  const cookie = result.headers.getSetCookie().find((line) => line.startsWith("shop_device="));
  return cookie?.split(";")[0] ?? "";
}

/** A login form posted from `ip`, with the browser's cookies. */
function postFrom(ip: string, fields: Record<string, string>, url: string, cookie = "") {
  const request = loginPost(ip, fields, url);
  if (cookie) request.headers.set("Cookie", cookie);
  return request;
}

describe("targeted lockout", () => {
  it("targeted lockout: a stranger's 10 wrong passwords lock the strangers out of a customer's account, not her own browser; her typos there count on her device", async () => {
    setClock(() => T0);
    const owner = await createUser("owner-28@example.jp", "Owner-Pass-2026");
    const { action } = await customerLogin();
    const login = (ip: string, password: string, cookie = "") =>
      callRoute(action, postFrom(ip, { email: owner.email, password }, "http://localhost/login", cookie));

    // Her browser logged in once: it has her device cookie, signed and HttpOnly.
    const first = await login("203.0.113.10", "Owner-Pass-2026");
    expect(first.status).toBe(302);
    const device = deviceOf(first);
    expect(device).toMatch(/^shop_device=.+/);
    expect(first.headers.getSetCookie().find((line) => line.startsWith("shop_device="))).toContain(
      "HttpOnly",
    );

    // The attack: a stranger who knows her address guesses from elsewhere until the account locks.
    setClock(() => T0 + MINUTE);
    for (let i = 1; i <= 10; i++)
      expect((await login("198.51.100.20", `Guess-${i}`)).status).toBe(i < 10 ? 401 : 423);
    // Locked for the stranger, right password included, as before.
    expect((await login("198.51.100.20", "Owner-Pass-2026")).status).toBe(423);

    // Her own browser is not locked: a typo counts on her device (9 left), her password logs her in.
    const typo = await login("203.0.113.10", "Owner-Pass-2025", device);
    // Her device's first wrong password: no warning yet, no lock (the strangers' run is at 10).
    expect(typo).toMatchObject({ status: 401, data: { warning: null, lockedUntil: null } });
    const back = await login("203.0.113.10", "Owner-Pass-2026", device);
    expect(back.status).toBe(302);
    const session = await getSession(
      new Request("http://localhost/", { headers: { Cookie: sessionOf(back) } }),
    );
    expect(await getCurrentUser(session)).toMatchObject({ id: owner.id });

    // Her login does not lift the strangers' lock, and a device cookie of another account, or
    // one made up, does not count as hers.
    expect((await login("198.51.100.20", "Owner-Pass-2026")).status).toBe(423);
    await createUser("stranger-28@example.jp", "Stranger-Pass-2026");
    const strangers = await callRoute(
      action,
      postFrom(
        "198.51.100.20",
        { email: "stranger-28@example.jp", password: "Stranger-Pass-2026" },
        "http://localhost/login",
      ),
    );
    expect(strangers.status).toBe(302);
    expect((await login("198.51.100.20", "Owner-Pass-2026", deviceOf(strangers))).status).toBe(423);
    const forged = `shop_device=${Buffer.from(JSON.stringify([{ account: owner.id, nonce: "x" }])).toString("base64")}`;
    expect((await login("198.51.100.20", "Owner-Pass-2026", forged)).status).toBe(423);
  });

  it("targeted lockout: a thief using her browser is stopped by the device's own lock, which leaves her other devices alone", async () => {
    setClock(() => T0);
    const owner = await createUser("device-lock-28@example.jp", "Owner-Pass-2026");
    const { action } = await customerLogin();
    const login = (ip: string, password: string, cookie = "") =>
      callRoute(action, postFrom(ip, { email: owner.email, password }, "http://localhost/login", cookie));
    const laptop = deviceOf(await login("203.0.113.11", "Owner-Pass-2026"));
    const phone = deviceOf(await login("203.0.113.12", "Owner-Pass-2026"));
    for (let i = 1; i <= CUSTOMER_LOGIN_POLICY.maxFailures; i++)
      expect((await login("203.0.113.11", `Guess-${i}`, laptop)).status).toBe(
        i < CUSTOMER_LOGIN_POLICY.maxFailures ? 401 : 423,
      );
    expect((await login("203.0.113.11", "Owner-Pass-2026", laptop)).status).toBe(423);
    expect((await login("203.0.113.12", "Owner-Pass-2026", phone)).status).toBe(302);
    // 15 quiet minutes later the laptop is hers again.
    setClock(() => T0 + 16 * MINUTE);
    expect((await login("203.0.113.11", "Owner-Pass-2026", laptop)).status).toBe(302);
  });

  it("targeted lockout: a stranger's 5 wrong passwords at the admin login do not keep the admin out: her browser passes the password and her second factor waits for her", async () => {
    setClock(() => T0);
    const admin = await createUser("boss-28@example.jp", "Admin-Pass-2026", { isAdmin: true });
    const { action } = await adminLogin();
    const login = (ip: string, password: string, cookie = "") =>
      callRoute(
        action,
        postFrom(ip, { email: admin.email, password }, "http://localhost/admin-login", cookie),
      );
    const first = await login("203.0.113.30", "Admin-Pass-2026");
    expect(first).toMatchObject({ status: 302, location: "/admin-2fa-verify" });
    const device = deviceOf(first);

    setClock(() => T0 + MINUTE);
    for (let i = 1; i <= ADMIN_LOGIN_POLICY.maxFailures; i++) {
      const guess = await login("198.51.100.30", `Guess-${i}`);
      expect(guess.status).toBe(i < ADMIN_LOGIN_POLICY.maxFailures ? 401 : 423);
    }
    const stranger = await login("198.51.100.30", "Admin-Pass-2026");
    expect(stranger.status).toBe(423);
    expect(JSON.stringify(stranger.data)).toContain(ADMIN_LOCKED_MESSAGE);

    const back = await login("203.0.113.30", "Admin-Pass-2026", device);
    expect(back).toMatchObject({ status: 302, location: "/admin-2fa-verify" });
    const pending = await getSession(
      new Request("http://localhost/", { headers: { Cookie: sessionOf(back) } }),
    );
    // Nothing stops her code: the strangers' lock is not the account's.
    expect(secondFactorState(pending)).toMatchObject({ status: "pending", lockedUntil: null });
    expect(accountLockedUntil(admin.id)).toBeNull();
  });
  it("targeted lockout: the security page lists an account locked for strangers until 15 minutes after the last guess, and unlocking it ends that lock", async () => {
    setClock(() => T0);
    const owner = await createUser("listed-28@example.jp", "Owner-Pass-2026");
    for (let i = 0; i < CUSTOMER_LOGIN_POLICY.maxFailures; i++)
      await attemptLogin(
        requestFrom("198.51.100.50"),
        { email: owner.email, password: `Guess-${i}` },
        CUSTOMER_LOGIN_POLICY,
      );
    const dashboard = securityDashboard("24h", protectionSettings());
    expect(dashboard.lockedAccounts).toContainEqual(
      expect.objectContaining({ email: owner.email, lockedUntil: new Date(T0 + 15 * MINUTE).toISOString() }),
    );
    expect(dashboard.userAccounts.lockedAccounts).toBeGreaterThanOrEqual(1);
    expect(unlockAccount(owner.id)).toBe(true);
    expect(securityDashboard("24h", protectionSettings()).lockedAccounts).not.toContainEqual(
      expect.objectContaining({ email: owner.email }),
    );
    expect(
      await attemptLogin(
        requestFrom("198.51.100.50"),
        { email: owner.email, password: "Owner-Pass-2026" },
        CUSTOMER_LOGIN_POLICY,
      ),
    ).toMatchObject({ ok: true });
  });
});

describe("draft flood", () => {
  it("draft flood: 40 cookie-less order-form posts from one address with TRUST_PROXY=none store 30 drafts, not 40; the rest get 429, and another address still starts one", async () => {
    const shop = seedContest();
    const slug = shop.name;
    const { action } = await import("~/routes/storefront/order-form");
    const post = (ip: string) => {
      const request = formRequest(`/order-form/${slug}`, [
        ["items[0].category", "A部門"],
        ["items[0].athleteId", String(shop.onSale.id)],
        ["items[0].formatId", String(shop.vertical.id)],
        ["intent", "add"],
      ]);
      request.headers.set("X-Shop-Client-Address", ip);
      return callRoute(action, request, { contestSlug: slug });
    };
    const count = () => db().select({ id: checkouts.id }).from(checkouts).all().length;
    const before = count();
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await post("198.51.100.40")).status);
    expect(count() - before).toBe(NEW_DRAFTS_PER_ADDRESS.limit);
    expect(statuses.filter((status) => status === 429)).toHaveLength(40 - NEW_DRAFTS_PER_ADDRESS.limit);
    expect((await post("198.51.100.41")).status).toBe(302);
  });
});

describe("address rotation", () => {
  const wrong = (ip: string, i: number, policy = CUSTOMER_LOGIN_POLICY) =>
    attemptLogin(requestFrom(ip), { email: `rotation-${ip}-${i}@example.jp`, password: "wrong" }, policy);

  it("address rotation: every address of one IPv6 /64, however written, is one bucket of the login's per-address limit", async () => {
    const { limit } = CUSTOMER_LOGIN_POLICY.perIp;
    for (let i = 0; i < limit; i++)
      expect(await wrong(`2001:db8:28:1::${(i + 1).toString(16)}`, i)).toMatchObject({ status: 401 });
    // Another address of the same /64, even spelt out in full, is refused before any hash.
    expect(await wrong("2001:0db8:0028:0001:ffff:ffff:ffff:fffe", limit)).toMatchObject({ status: 429 });
    // The next /64 is someone else.
    expect(await wrong("2001:db8:28:2::1", 0)).toMatchObject({ status: 401 });
  });

  it("address rotation: an IPv4 address and its IPv4-mapped IPv6 spellings are one bucket", async () => {
    const { limit } = ADMIN_LOGIN_POLICY.perIp;
    const spellings = ["192.0.2.33", "::ffff:192.0.2.33", "::ffff:c000:221", "0:0:0:0:0:ffff:192.0.2.33"];
    for (let i = 0; i < limit; i++)
      expect(await wrong(spellings[i % spellings.length]!, i, ADMIN_LOGIN_POLICY)).toMatchObject({
        status: 401,
      });
    for (const ip of spellings)
      expect(await wrong(ip, limit, ADMIN_LOGIN_POLICY)).toMatchObject({ status: 429 });
  });

  it("address rotation: the password check line takes a /64 and a mapped address as one caller", () => {
    const caller = (ip: string) => passwordCheckCaller(requestFrom(ip));
    expect(caller("2001:db8:28:3::1")).toBe(caller("2001:db8:28:3:abcd::9"));
    expect(caller("2001:db8:28:3::1")).not.toBe(caller("2001:db8:28:4::1"));
    expect(caller("::ffff:192.0.2.34")).toBe(caller("192.0.2.34"));
  });
});
