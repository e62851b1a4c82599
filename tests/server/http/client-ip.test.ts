import { afterEach, describe, expect, it, vi } from "vitest";
import { parseEnv } from "~/server/core/env.server";
import { originOf } from "~/server/http/client-address.server";
import { clientIp, originLimitKey, trustProxyNotice } from "~/server/http/rate-limit.server";

const request = (headers: Record<string, string>) => new Request("http://shop.test/login", { headers });

describe("the client's address for per-address limits", () => {
  it("is the address the server's edge sets in X-Shop-Client-Address, whatever TRUST_PROXY says; no other header is believed", () => {
    expect(clientIp(request({ "X-Shop-Client-Address": "203.0.113.5" }))).toBe("203.0.113.5");
    expect(clientIp(request({ "X-Shop-Client-Address": " 2001:db8::1 " }))).toBe("2001:db8::1");
    // Headers a client can write itself name nobody: the edge has already read the one it trusts.
    expect(
      clientIp(request({ "X-Forwarded-For": "203.0.113.5", "Fly-Client-IP": "198.51.100.1" })),
    ).toBeNull();
    expect(clientIp(request({}))).toBeNull();
    expect(clientIp(request({ "X-Shop-Client-Address": "unknown" }))).toBeNull();
    expect(clientIp(request({ "X-Shop-Client-Address": "1.2.3.4, 5.6.7.8" }))).toBeNull();
  });

  it("address rotation: a limit counts an IPv4 address itself, an IPv6 address by its /64 however it is written, and an IPv4-mapped IPv6 address as its IPv4 address", () => {
    const key = (address: string) =>
      originLimitKey(request({ "X-Shop-Client-Address": address }), "login:customer");
    expect(key("203.0.113.5")).toBe("login:customer:203.0.113.5");
    expect(key("203.0.113.6")).toBe("login:customer:203.0.113.6");
    // The edge converts mapped addresses; one that slips through is still the same bucket.
    expect(key("::ffff:203.0.113.5")).toBe("login:customer:203.0.113.5");
    expect(key("::FFFF:cb00:7105")).toBe("login:customer:203.0.113.5");
    expect(key("0:0:0:0:0:ffff:203.0.113.5")).toBe("login:customer:203.0.113.5");
    // Every address of one /64, in every spelling, is one bucket; the next /64 is another.
    const home = "login:customer:2001:db8:1:2::/64";
    for (const address of [
      "2001:db8:1:2::1",
      "2001:db8:1:2:ffff:ffff:ffff:ffff",
      "2001:0DB8:0001:0002:0000:0000:0000:0001",
      "2001:db8:1:2:a:b:c:d",
      "2001:db8:1:2::1.2.3.4",
      "2001:db8:1:2::1%eth0",
    ])
      expect(key(address)).toBe(home);
    expect(key("2001:db8:1:3::1")).toBe("login:customer:2001:db8:1:3::/64");
    expect(key("::1")).toBe("login:customer:0:0:0:0::/64");
    expect(originOf("2001:db8::")).toBe("2001:db8:0:0::/64");
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

  it("start-up says which mode is in force, and that per-address limits are on in every mode", () => {
    expect(trustProxyNotice("none")).toMatch(
      /^TRUST_PROXY=none: 接続してきた相手（ソケットの接続元）をクライアントとみなします/,
    );
    for (const mode of ["none", "fly", 2] as const)
      expect(trustProxyNotice(mode)).toContain("IPアドレスごとの回数制限は有効です");
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
      login: await import("~/server/auth/login/login.server"),
      policies: await import("~/server/auth/login/login-policies.server"),
      registration: await import("~/server/accounts/registration.server"),
      accounts: await import("../../helpers/accounts"),
    };
  }
  const adminLogin = (headers: Record<string, string>) =>
    new Request("http://shop.test/admin-login", { method: "POST", headers });

  it("with TRUST_PROXY=none (the default off fly.io) the per-address limit holds on the address the edge names, whatever X-Forwarded-For a client invents; another address and the admin herself carry on", async () => {
    const { login, policies, accounts } = await shopWith("none");
    const { attemptLogin } = login;
    const { ADMIN_LOGIN_POLICY } = policies;
    const owner = "owner-f4@example.jp";
    await accounts.createUser(owner, "Right-Password-1", { isAdmin: true });
    const from = (address: string, invented: string) =>
      adminLogin({ "X-Shop-Client-Address": address, "X-Forwarded-For": invented });

    // The attack: as many bad admin logins as the per-address limit, each inventing another address.
    for (let i = 0; i < ADMIN_LOGIN_POLICY.perIp.limit; i++)
      expect(
        await attemptLogin(
          from("198.51.100.7", `10.9.${i}.1`),
          { email: `spray-${i}@example.jp`, password: "wrong" },
          ADMIN_LOGIN_POLICY,
        ),
      ).toMatchObject({ ok: false, status: 401 });
    expect(
      await attemptLogin(
        from("198.51.100.7", "10.9.99.1"),
        { email: "spray-x@example.jp", password: "wrong" },
        ADMIN_LOGIN_POLICY,
      ),
    ).toMatchObject({ ok: false, status: 429 });

    // Another address is not affected, and the admin logs in from hers.
    expect(
      await attemptLogin(
        from("198.51.100.8", "198.51.100.7"),
        { email: "spray-y@example.jp", password: "wrong" },
        ADMIN_LOGIN_POLICY,
      ),
    ).toMatchObject({ status: 401 });
    expect(
      await attemptLogin(
        from("203.0.113.20", "198.51.100.7"),
        { email: owner, password: "Right-Password-1" },
        ADMIN_LOGIN_POLICY,
      ),
    ).toMatchObject({ ok: true });
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
