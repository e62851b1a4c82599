import { expect, test, type APIResponse, type Page } from "@playwright/test";
import { contestSlug } from "../../app/lib/rules/slug";
import { e2eDb } from "../support/db";
import { codeFrom, CONTEST, enterCode, fillItem, openOrderForm } from "../support/flows";
import { uniqueEmail, waitForMail } from "../support/helpers";
import { loginAsAdmin } from "../support/users";

/** Headers every response must carry, whatever made it. */
function expectCommonHeaders(headers: Record<string, string>, where: string) {
  expect(headers["x-content-type-options"], where).toBe("nosniff");
  expect(headers["x-frame-options"], where).toBe("DENY");
  expect(headers["referrer-policy"], where).toMatch(
    /^(strict-origin-when-cross-origin|same-origin|no-referrer)$/,
  );
  const csp = headers["content-security-policy"] ?? "";
  expect(csp, where).toContain("frame-ancestors 'none'");
  expect(csp, where).not.toContain("stripe");
  // The e2e site is http://: no HSTS (it would pin a plain-http host to https).
  expect(headers["strict-transport-security"], where).toBeUndefined();
}

function expectPageCsp(headers: Record<string, string>, where: string) {
  const csp = headers["content-security-policy"] ?? "";
  expect(csp, where).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{16,}'/);
  for (const directive of [
    "default-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "frame-src 'none'",
  ]) {
    expect(csp, where).toContain(directive);
  }
  // Scripts run only from this site or with the nonce; <style> elements only from the stylesheet.
  const directive = (name: string) => csp.split("; ").find((d) => d.startsWith(`${name} `)) ?? "";
  expect(directive("script-src"), where).not.toMatch(/unsafe-inline|unsafe-eval/);
  expect(directive("style-src"), where).toBe("style-src 'self'");
  // Style attributes (a category's colour) are allowed: they cannot hold selectors.
  expect(directive("style-src-attr"), where).toBe("style-src-attr 'unsafe-inline'");
}

test.describe("security headers", () => {
  test(
    "every kind of response carries them: pages, resource routes, JSON, redirects, the 404, /healthz",
    { tag: "@js-only" },
    async ({ request }) => {
      // Runs in the js project only: plain HTTP, one run is enough.
      const cover = (
        e2eDb()
          .prepare("select stored_name as name from media_items where category = 'cover-image' limit 1")
          .get() as { name: string } | undefined
      )?.name;
      const pages = [
        "/",
        `/order-form/${encodeURIComponent(contestSlug(CONTEST))}`,
        "/admin-login",
        "/no-such-page",
        "/download/not-a-real-page-id",
      ];
      const others = [
        "/healthz",
        "/api/email-status",
        "/media/no-such-file.webp",
        ...(cover ? [`/media/${cover}`] : []),
        "/admin",
        "/payment",
        "/admin/orders",
      ];

      const responses: [string, APIResponse][] = [];
      for (const url of [...pages, ...others])
        responses.push([url, await request.get(url, { maxRedirects: 0 })]);
      const status = Object.fromEntries(responses.map(([url, r]) => [url, r.status()]));
      expect(status).toMatchObject({
        "/": 200,
        "/admin-login": 200,
        "/no-such-page": 404,
        "/download/not-a-real-page-id": 404,
        "/healthz": 200,
        "/admin": 302,
        "/payment": 302,
      });

      for (const [url, response] of responses) {
        const headers = response.headers();
        expectCommonHeaders(headers, url);
        if (pages.includes(url)) {
          expectPageCsp(headers, url);
        } else {
          // Files, JSON and redirects may run and load nothing.
          expect(headers["content-security-policy"], url).toMatch(/^default-src 'none'/);
        }
      }
      // Download page ids are secrets: no Referer leaves for another site (the page posts its family
      // link's buttons, so it keeps its Referer to this site, as an order's status page does).
      expect(responses.find(([url]) => url.startsWith("/download/"))?.[1].headers()["referrer-policy"]).toBe(
        "same-origin",
      );
      expect(responses.find(([url]) => url === "/")?.[1].headers()["referrer-policy"]).toBe(
        "strict-origin-when-cross-origin",
      );
      // A fresh nonce per response.
      const nonceOf = (r: APIResponse) =>
        /'nonce-([^']+)'/.exec(r.headers()["content-security-policy"] ?? "")?.[1];
      const again = await request.get("/");
      expect(nonceOf(again)).toBeTruthy();
      expect(nonceOf(again)).not.toBe(nonceOf(responses[0]![1]));
      // Every script in the page carries it.
      const html = await again.text();
      const scripts = html.match(/<script\b[^>]*>/g) ?? [];
      expect(scripts.length).toBeGreaterThan(0);
      for (const tag of scripts) expect(tag).toContain(`nonce="${nonceOf(again)}"`);
      // Single-fetch data (what client-side navigation loads) gets them too.
      const data = await request.get("/admin-login.data", { maxRedirects: 0 });
      expectCommonHeaders(data.headers(), "/admin-login.data");
    },
  );

  test(
    "logged-in and admin pages, their data and admin APIs are sent with Cache-Control: private, no-store",
    { tag: "@js-only" },
    async ({ context, baseURL }) => {
      // Runs in the js project only: plain HTTP, one run is enough.
      await loginAsAdmin(context, baseURL ?? "", uniqueEmail("no-store-admin"));
      for (const url of ["/account", "/purchase-history", "/admin", "/admin/orders", "/admin/orders.data"]) {
        const response = await context.request.get(url, { maxRedirects: 0 });
        expect(response.status(), url).toBe(200);
        expect(response.headers()["cache-control"], url).toBe("private, no-store");
      }
      const api = await context.request.get("/api/admin/security-dashboard", { maxRedirects: 0 });
      expect(api.status()).toBe(200);
      expect(api.headers()["cache-control"]).toBe("private, no-store");
      // *private pages cached*: a storefront page and its data drawn for her name her in the header.
      for (const url of ["/about", "/about.data", "/"]) {
        const page = await context.request.get(url);
        expect(page.headers()["cache-control"], url).toBe("private, no-store");
      }
      // Drawn for nobody in particular (no session cookie), a public page keeps its own caching.
      const anonymous = await context.request.get("/about", { headers: { Cookie: "" } });
      expect(anonymous.headers()["cache-control"] ?? "").not.toContain("no-store");
    },
  );

  test("the session cookie is HttpOnly and SameSite=Lax (Secure and __Host- on https: tests/server/http/security-headers.test.ts)", async ({
    page,
  }) => {
    // Starting an order puts the checkout in the session.
    await openOrderForm(page);
    await fillItem(page, 1, "キッズ部門", /^1 /, "縦");
    await page.getByRole("button", { name: "注文内容の確認へ進む" }).click();
    await expect(page).toHaveURL(/\/order-confirmation$/);
    const cookie = (await page.context().cookies()).find((c) => c.name === "shop_session");
    expect(cookie).toBeTruthy();
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe("Lax");
    expect(await page.evaluate(() => document.cookie)).not.toContain("shop_session");
  });

  test("the payment page alone names the card provider, and it is loaded as a document so its policy applies", async ({
    page,
  }) => {
    const email = uniqueEmail("csp-payment");
    await openOrderForm(page);
    await fillItem(page, 1, "キッズ部門", /^1 /, "縦");
    await page.getByRole("button", { name: "注文内容の確認へ進む" }).click();
    await page.getByLabel("メールアドレス").fill(email);
    await page.getByLabel("お名前").fill("ヘッダー 確認");
    await page.getByRole("button", { name: "確認コードを送信して次へ" }).click();
    await expect(page).toHaveURL(/\/email-verification$/);
    const verificationCsp = (await page.request.get("/email-verification")).headers()[
      "content-security-policy"
    ];
    expect(verificationCsp).not.toContain("stripe");

    await enterCode(page, codeFrom((await waitForMail(email)).text));
    // With JS the step after the code is a client-side navigation; the server turns it into a document load.
    const paymentDocument = page.waitForResponse(
      (r) => new URL(r.url()).pathname === "/payment" && r.request().resourceType() === "document",
    );
    await page.getByRole("button", { name: "認証する" }).click();
    const csp = (await paymentDocument).headers()["content-security-policy"] ?? "";
    await expect(page.getByRole("heading", { name: "お支払い" })).toBeVisible();
    expect(csp).toMatch(/script-src 'self' 'nonce-[^']+' https:\/\/js\.stripe\.com/);
    expect(csp).toContain("frame-src https://js.stripe.com");
    expect(csp).toContain("connect-src 'self' https://api.stripe.com");
    expect(csp).toContain("form-action 'self'");
    // The test card form still works under the policy.
    await page.getByLabel("カード名義").fill("TARO");
    await page.getByLabel("カード番号").fill("4242424242424242");
    await page.getByLabel("有効期限（MM/YY）").fill("12/39");
    await page.getByLabel("セキュリティコード").fill("123");
    await page.getByRole("button", { name: /を支払う/ }).click();
    await expect(page).toHaveURL(/\/payment-complete$/);
  });

  test(
    "no page breaks the policy with JavaScript on: storefront, order form, admin pages, the QR code",
    { tag: "@js-only" },
    async ({ page, context, baseURL }) => {
      // Runs in the js project only: CSP violations come from scripts.
      const violations: string[] = [];
      const watch = (p: Page) => {
        p.on("console", (message) => {
          if (/Content Security Policy|Refused to/i.test(message.text()))
            violations.push(`${p.url()}: ${message.text()}`);
        });
        p.on("pageerror", (error) => violations.push(`${p.url()}: ${error.message}`));
      };
      watch(page);
      await page.goto("/");
      // The inline script with the nonce ran before hydration; React then took over.
      await expect(page.locator("html")).toHaveClass(/\bjs\b/);
      await openOrderForm(page);
      await page.getByRole("button", { name: "＋ 商品を追加" }).click();
      await expect(page.getByRole("group", { name: "商品2" })).toBeVisible();
      await page.getByRole("link", { name: "利用規約" }).first().click();
      await expect(page).toHaveURL(/\/terms$/);

      const admin = await loginAsAdmin(context, baseURL ?? "", uniqueEmail("csp-admin"));
      for (const url of [
        "/admin",
        "/admin/orders",
        "/admin/sales",
        "/admin/users",
        "/admin/security",
        "/admin/two-factor-setup",
      ]) {
        const response = await page.goto(url);
        expect(response?.status(), url).toBe(200);
      }
      // The authenticator QR code (shown after the password and a mailed code) is a data: URL
      // image, allowed by img-src.
      await page.getByRole("button", { name: "認証コードを送信" }).click();
      const mailed = await waitForMail(admin.email);
      await page.getByLabel("パスワード").fill(admin.password);
      await page.getByLabel("メールの認証コード（6桁）").fill(/\b(\d{6})\b/.exec(mailed.text)?.[1] ?? "");
      await page.getByRole("button", { name: "認証アプリを設定する" }).click();
      const qr = page.getByRole("img", { name: "認証アプリ用のQRコード" });
      await expect(qr).toBeVisible();
      expect(await qr.getAttribute("src")).toMatch(/^data:image\//);
      expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
      expect(violations).toEqual([]);
    },
  );
});
