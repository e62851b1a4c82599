import { expect, test } from "@playwright/test";
import { uniqueEmail } from "../support/helpers";
import { loginAsAdmin } from "../support/users";

const MALFORMED = [
  "/%",
  "/order-form/%E0%A4%A",
  "/%E0%A4%A",
  "/order-form/%E3%81",
  "/about%",
  "/a%2",
  "/%C0%AF",
  "/admin/%ZZ",
  "/admin/contest/1/%E0%A4%A",
  "/admin/contest/%E0%A4%A",
];

test("a URL with a malformed percent-encoding gets the shop's 404 page, not a bare Bad Request", async ({
  page,
  context,
  baseURL,
  request,
}) => {
  for (const path of MALFORMED.filter((path) => path !== "/admin/contest/%E0%A4%A")) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBe(404);
    expect(response.headers()["content-type"], path).toContain("text/html");
    const html = await response.text();
    expect(html, path).toContain("Page Not Found");
    expect(html, path).toContain("ホームへ戻る");
  }

  // In a browser: the page with the shop's header and a way home.
  const response = await page.goto("/order-form/%E0%A4%A");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page Not Found" })).toBeVisible();
  await expect(page.getByRole("banner").getByRole("link", { name: /コンテスト動画ショップ/ })).toBeVisible();
  await page.getByRole("link", { name: "ホームへ戻る" }).click();
  await expect(page.getByRole("heading", { name: "販売中の大会" })).toBeVisible();

  // Under the back-office: still behind the admin check, then not found for an admin.
  const anonymous = await request.get("/admin/contest/%E0%A4%A", { maxRedirects: 0 });
  expect(anonymous.status()).toBe(302);
  expect(anonymous.headers().location).toMatch(/^\/admin-login/);
  await loginAsAdmin(context, baseURL ?? "", uniqueEmail("malformed-admin"));
  for (const [path, heading] of [
    ["/admin/%ZZ", "Page Not Found"],
    ["/admin/contest/%E0%A4%A", /見つかりません|Page Not Found/],
  ] as const) {
    const adminResponse = await page.goto(path);
    expect(adminResponse?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { name: heading }).first()).toBeVisible();
  }
  // Well-formed addresses are untouched.
  expect((await request.get("/about")).status()).toBe(200);
  expect((await request.get("/?q=%")).status()).toBe(200);
});
