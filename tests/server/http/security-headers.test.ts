import { afterEach, describe, expect, it, vi } from "vitest";

// env() is read once per module instance: each case loads the modules afresh with its environment.
const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
  vi.resetModules();
});

async function load(env: Record<string, string>) {
  Object.assign(process.env, env);
  vi.resetModules();
  return {
    headers: await import("~/server/http/security-headers.server"),
    session: await import("~/server/http/session.server"),
  };
}

const HTTPS = {
  NODE_ENV: "production",
  SITE_URL: "https://shop.example.jp",
  SESSION_SECRET: "s".repeat(40),
  ENCRYPTION_KEY: "k".repeat(40),
};

describe("session cookie", () => {
  it("is HttpOnly and SameSite=Lax on http, without Secure or the __Host- prefix", async () => {
    const { session } = await load({ SITE_URL: "http://localhost:3000" });
    const cookie = await session.commitSession(
      await session.getSession(new Request("http://localhost:3000/")),
    );
    expect(cookie).toMatch(/^shop_session=/);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    expect(cookie).toContain("Path=/");
    expect(cookie).not.toContain("Secure");
  });

  it("on an https site is __Host- prefixed and Secure, still HttpOnly and SameSite=Lax, with no Domain", async () => {
    const { session } = await load(HTTPS);
    const cookie = await session.commitSession(
      await session.getSession(new Request("https://shop.example.jp/")),
    );
    expect(cookie).toMatch(/^__Host-shop_session=/);
    expect(cookie).toContain("Secure");
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    expect(cookie).toContain("Path=/");
    expect(cookie).not.toMatch(/Domain=/i);
  });
});

describe("security headers", () => {
  it("Strict-Transport-Security only when the site is https", async () => {
    const onHttp = new Headers();
    (await load({ SITE_URL: "http://localhost:3000" })).headers.applySecurityHeaders(onHttp, {
      pathname: "/",
      nonce: "abc",
    });
    expect(onHttp.get("Strict-Transport-Security")).toBeNull();
    const onHttps = new Headers();
    (await load(HTTPS)).headers.applySecurityHeaders(onHttps, { pathname: "/", nonce: "abc" });
    expect(onHttps.get("Strict-Transport-Security")).toBe("max-age=63072000; includeSubDomains");
    expect(onHttps.get("X-Content-Type-Options")).toBe("nosniff");
    expect(onHttps.get("X-Frame-Options")).toBe("DENY");
    expect(onHttps.get("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
  });

  it("keeps a download page's id to this site (its buttons post) and lets no Referer leave a family link or a video", async () => {
    const { headers } = await load(HTTPS);
    const policyOf = (pathname: string) => {
      const answer = new Headers();
      headers.applySecurityHeaders(answer, { pathname });
      return [answer.get("Referrer-Policy"), answer.get("Cache-Control")];
    };
    const id = "AbCdEfGhIjKlMnOpQrStUv";
    // no-referrer would make the page's posts carry Origin: null, refused as cross-site.
    expect(policyOf(`/download/${id}`)).toEqual(["same-origin", "private, no-store"]);
    expect(policyOf(`/download/${id}/12/vertical`)).toEqual(["no-referrer", "private, no-store"]);
    expect(policyOf(`/family/${id}`)).toEqual(["no-referrer", "private, no-store"]);
    expect(policyOf(`/family/${id}/12`)).toEqual(["no-referrer", "private, no-store"]);
  });

  it("names Stripe on /payment only, with the nonce for inline scripts", async () => {
    const { headers } = await load(HTTPS);
    const payment = headers.documentPolicy({ pathname: "/payment", nonce: "n0nce" });
    expect(payment).toContain("script-src 'self' 'nonce-n0nce' https://js.stripe.com");
    expect(payment).toContain("frame-src https://js.stripe.com");
    expect(payment).toContain("connect-src 'self' https://api.stripe.com");
    expect(payment).toContain("style-src 'self' 'unsafe-inline'");
    for (const pathname of ["/", "/payment-complete", "/payment/return", "/admin", "/order-confirmation"]) {
      const policy = headers.documentPolicy({ pathname, nonce: "n0nce" });
      expect(policy, pathname).not.toContain("stripe");
      expect(policy, pathname).toContain("frame-src 'none'");
      expect(policy, pathname).toContain("frame-ancestors 'none'");
      expect(policy, pathname).toContain("script-src 'self' 'nonce-n0nce';");
      expect(policy, pathname).toContain("style-src 'self';");
      expect(policy, pathname).toContain("style-src-attr 'unsafe-inline';");
      expect(policy, pathname).toContain("img-src 'self' data: blob:;");
    }
  });

  it("a client-side navigation to /payment from another page becomes a document load; one from /payment itself does not", async () => {
    const { headers } = await load(HTTPS);
    const data = (referer?: string, method = "GET") =>
      new Request("https://shop.example.jp/payment.data", {
        method,
        headers: referer ? { Referer: referer } : {},
      });
    expect(headers.needsDocumentLoad(data("https://shop.example.jp/email-verification"))).toBe(true);
    expect(headers.needsDocumentLoad(data())).toBe(true);
    expect(headers.needsDocumentLoad(data("https://shop.example.jp/payment"))).toBe(false);
    expect(headers.needsDocumentLoad(data("https://shop.example.jp/payment", "POST"))).toBe(false);
    expect(headers.needsDocumentLoad(new Request("https://shop.example.jp/order-confirmation.data"))).toBe(
      false,
    );
  });

  it("the server entry's secureAnswer gives every answer Remix makes its headers, and static files theirs", async () => {
    Object.assign(process.env, HTTPS);
    vi.resetModules();
    const { secureAnswer } = await import("~/server/edge.server");
    const { staticFileHeaders } = await import("~/server/http/security-headers.server");
    const request = new Request("https://shop.example.jp/media/a.mp4");
    const answers = {
      file: new Response("x", { headers: { "Content-Type": "video/mp4" } }),
      missing: new Response("Not Found", { status: 404 }),
      redirect: new Response(null, { status: 302, headers: { Location: "/login" } }),
      // Immutable headers (a fetch's, Response.redirect's) are copied, not lost.
      immutable: Response.redirect("https://shop.example.jp/", 302),
    };
    for (const [name, answer] of Object.entries(answers)) {
      const secured = secureAnswer(request, answer);
      expect(secured.headers.get("X-Content-Type-Options"), name).toBe("nosniff");
      expect(secured.headers.get("Content-Security-Policy"), name).toMatch(/^default-src 'none'/);
      expect(secured.headers.get("Strict-Transport-Security"), name).toBeTruthy();
    }
    // A document's own policy (with its nonce, from entry.server) is kept as it is.
    const page = new Response("<html>", {
      headers: { "Content-Type": "text/html", "Content-Security-Policy": "script-src 'nonce-abc'" },
    });
    expect(
      secureAnswer(new Request("https://shop.example.jp/"), page).headers.get("Content-Security-Policy"),
    ).toBe("script-src 'nonce-abc'");
    const asset = staticFileHeaders("/entry.client-abc.js");
    expect(asset.get("Content-Security-Policy")).toMatch(/^default-src 'none'/);
    expect(asset.get("X-Frame-Options")).toBe("DENY");
    expect(asset.get("Content-Type")).toBeNull();
  });

  it("private pages cached: a page or its data drawn for a visitor with a session is never kept by a cache; without one it is left alone", async () => {
    Object.assign(process.env, HTTPS);
    vi.resetModules();
    const { secureAnswer } = await import("~/server/edge.server");
    const { sessionCookieName } = await import("~/server/http/session.server");
    const drawn = (type: string) => new Response("x", { headers: { "Content-Type": type } });
    const withSession = (url: string) =>
      new Request(url, { headers: { Cookie: `theme=dark; ${sessionCookieName()}=abc.def` } });
    for (const [url, type] of [
      ["https://shop.example.jp/about", "text/html; charset=utf-8"],
      ["https://shop.example.jp/about.data", "text/x-script"],
    ] as const) {
      expect(secureAnswer(withSession(url), drawn(type)).headers.get("Cache-Control"), url).toBe(
        "private, no-store",
      );
      expect(secureAnswer(new Request(url), drawn(type)).headers.get("Cache-Control"), url).toBeNull();
    }
    // Files keep their own caching (a cover is the same for everybody).
    const cover = new Response("x", {
      headers: { "Content-Type": "image/webp", "Cache-Control": "public, max-age=60" },
    });
    expect(
      secureAnswer(withSession("https://shop.example.jp/media/c.webp"), cover).headers.get("Cache-Control"),
    ).toBe("public, max-age=60");
  });
});

describe("CSP nonces", () => {
  it("are 128 random bits each, never the same twice, also across the pool's refills", async () => {
    const { headers } = await load(HTTPS);
    const nonces = Array.from({ length: 1_000 }, () => headers.createNonce());
    expect(new Set(nonces).size).toBe(nonces.length);
    for (const nonce of nonces) expect(Buffer.from(nonce, "base64")).toHaveLength(16);
  });
});
