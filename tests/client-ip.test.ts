import { afterEach, describe, expect, it, vi } from "vitest";
import { parseEnv } from "~/server/core/env.server";
import { clientIp, trustProxyNotice } from "~/server/http/rate-limit.server";

// Logins here are about addresses and counts, not hashing cost.
vi.mock("~/server/auth/password.server", async (importOriginal) => {
  const { fastDecoyHash, fastHashPassword } = await import("./helpers/fast-password");
  return {
    ...(await importOriginal<typeof import("~/server/auth/password.server")>()),
    hashPassword: fastHashPassword,
    decoyHash: fastDecoyHash,
  };
});

const request = (headers: Record<string, string>) => new Request("http://shop.test/login", { headers });

describe("the client's address for per-address limits", () => {
  it("with N trusted proxies takes the Nth X-Forwarded-For entry from the right, never one a client can invent", () => {
    expect(clientIp(request({ "X-Forwarded-For": "203.0.113.5" }), 1)).toBe("203.0.113.5");
    // A client rotating a fake first entry still lands in its real address's bucket.
    expect(clientIp(request({ "X-Forwarded-For": "1.2.3.4, 203.0.113.5" }), 1)).toBe("203.0.113.5");
    expect(clientIp(request({ "X-Forwarded-For": "9.9.9.9, 203.0.113.5" }), 1)).toBe("203.0.113.5");
    expect(clientIp(request({ "X-Forwarded-For": "9.9.9.9, 203.0.113.5, 10.0.0.2" }), 2)).toBe("203.0.113.5");
    expect(clientIp(request({ "X-Forwarded-For": "2001:db8::1" }), 1)).toBe("2001:db8::1");
    // Fewer entries than trusted proxies, none at all, or something that is not an address: unknown.
    expect(clientIp(request({ "X-Forwarded-For": "203.0.113.5" }), 2)).toBeNull();
    expect(clientIp(request({}), 1)).toBeNull();
    expect(clientIp(request({ "X-Forwarded-For": "1.2.3.4, unknown" }), 1)).toBeNull();
  });

  it("with fly believes only Fly-Client-IP, and with none no header at all", () => {
    const both = request({ "Fly-Client-IP": "198.51.100.1", "X-Forwarded-For": "203.0.113.5" });
    expect(clientIp(both, "fly")).toBe("198.51.100.1");
    expect(clientIp(request({ "X-Forwarded-For": "203.0.113.5" }), "fly")).toBeNull();
    expect(clientIp(both, "none")).toBeNull();
  });

  it("TRUST_PROXY is checked at start-up: fly on fly.io and none elsewhere unless set; a bad value names it", () => {
    expect(parseEnv({}).TRUST_PROXY).toBe("none");
    expect(parseEnv({ FLY_APP_NAME: "contest-video-shop" }).TRUST_PROXY).toBe("fly");
    expect(parseEnv({ FLY_APP_NAME: "contest-video-shop", TRUST_PROXY: "none" }).TRUST_PROXY).toBe("none");
    expect(parseEnv({ TRUST_PROXY: "2" }).TRUST_PROXY).toBe(2);
    expect(parseEnv({ TRUST_PROXY: "fly" }).TRUST_PROXY).toBe("fly");
    for (const bad of ["0", "-1", "1.5", "yes", "11", "true"])
      expect(() => parseEnv({ TRUST_PROXY: bad })).toThrowError(/TRUST_PROXY: fly、none、または/);
  });

  it("start-up says which mode is in force", () => {
    expect(trustProxyNotice("none")).toMatch(/^TRUST_PROXY=none: .*IPアドレスごとの回数制限は行わず/);
    expect(trustProxyNotice("fly")).toContain("Fly-Client-IP");
    expect(trustProxyNotice(2)).toContain("X-Forwarded-For の右から2番目");
  });
});

describe("per-address limits by TRUST_PROXY", () => {
  const saved = process.env.TRUST_PROXY;
  afterEach(() => {
    process.env.TRUST_PROXY = saved;
    vi.resetModules();
  });

  // env() is read once per module instance: the shop is loaded afresh with each mode.
  async function shopWith(trust: string) {
    process.env.TRUST_PROXY = trust;
    vi.resetModules();
    return {
      login: await import("~/server/auth/login.server"),
      registration: await import("~/server/accounts/registration.server"),
      accounts: await import("./helpers/accounts"),
    };
  }
  const adminLogin = (headers: Record<string, string>) =>
    new Request("http://shop.test/admin-login", { method: "POST", headers });

  it("finding 4: with TRUST_PROXY=none, 25 bad logins from clients without the header or with invented X-Forwarded-For do not lock the real admin out by address (her own account still locks after 5); with 1 hop an invented first entry picks no bucket", async () => {
    const { login, accounts } = await shopWith("none");
    const { attemptLogin, ADMIN_LOGIN_POLICY } = login;
    const owner = "owner-f4@example.jp";
    await accounts.createUser(owner, "Right-Password-1", { isAdmin: true });

    // The attack: more bad admin logins than the per-address limit (20), for many addresses,
    // mostly from clients that send no header, some inventing one.
    for (let i = 0; i < 25; i++) {
      const headers: Record<string, string> = i % 5 === 4 ? { "X-Forwarded-For": `198.51.100.${i}` } : {};
      const attempt = await attemptLogin(
        adminLogin(headers),
        { email: `guess-${i}@example.jp`, password: "wrong-password" },
        ADMIN_LOGIN_POLICY,
      );
      expect(attempt).toMatchObject({ ok: false, status: 401 });
    }
    // The real admin, also without the header, still logs in: no address bucket was filled.
    expect(
      await attemptLogin(adminLogin({}), { email: owner, password: "Right-Password-1" }, ADMIN_LOGIN_POLICY),
    ).toMatchObject({ ok: true });

    // The per-account limit still holds without an address: her 5th wrong password locks her account.
    for (let i = 1; i <= 5; i++)
      expect(
        await attemptLogin(adminLogin({}), { email: owner, password: "wrong" }, ADMIN_LOGIN_POLICY),
      ).toMatchObject({ ok: false, status: i < 5 ? 401 : 423 });
    expect(
      await attemptLogin(adminLogin({}), { email: owner, password: "Right-Password-1" }, ADMIN_LOGIN_POLICY),
    ).toMatchObject({ ok: false, status: 423 });

    // Behind one proxy, the entry it added decides the bucket, whatever the client wrote before it.
    const behindProxy = await shopWith("1");
    const viaProxy = (invented: string) => adminLogin({ "X-Forwarded-For": `${invented}, 203.0.113.44` });
    for (let i = 0; i < behindProxy.login.ADMIN_LOGIN_POLICY.perIp.limit; i++)
      expect(
        await behindProxy.login.attemptLogin(
          viaProxy(`10.9.${i}.1`),
          { email: `spray-${i}@example.jp`, password: "wrong" },
          behindProxy.login.ADMIN_LOGIN_POLICY,
        ),
      ).toMatchObject({ status: 401 });
    expect(
      await behindProxy.login.attemptLogin(
        viaProxy("10.9.99.1"),
        { email: "spray-x@example.jp", password: "wrong" },
        behindProxy.login.ADMIN_LOGIN_POLICY,
      ),
    ).toMatchObject({ ok: false, status: 429 });
    // Another client behind the same proxy is not affected.
    expect(
      await behindProxy.login.attemptLogin(
        adminLogin({ "X-Forwarded-For": "203.0.113.45" }),
        { email: "spray-y@example.jp", password: "wrong" },
        behindProxy.login.ADMIN_LOGIN_POLICY,
      ),
    ).toMatchObject({ status: 401 });
  });

  it("with TRUST_PROXY=none the per-e-mail limit on mailed codes still holds", async () => {
    const { registration } = await shopWith("none");
    const values = {
      email: "limit-f4@example.jp",
      name: "制限 花子",
      password: "Hanako-2025",
      confirmPassword: "Hanako-2025",
      agreesToTerms: "on" as const,
    };
    const start = () =>
      registration.startRegistration(new Request("http://shop.test/register", { method: "POST" }), values, {
        honeypot: false,
        fromOrder: false,
      });
    for (let i = 0; i < 5; i++) expect(await start()).toMatchObject({ ok: true });
    expect(await start()).toMatchObject({ ok: false, status: 429 });
  });
});
