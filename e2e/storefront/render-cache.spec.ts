import { expect, test, type APIResponse } from "@playwright/test";
import { slugKey } from "../../app/lib/rules/slug";
import { withDb } from "../support/db";
import { uniqueEmail } from "../support/helpers";
import { createUser, putSessionCookie } from "../support/users";

// The render cache (app/server/http/render-cache.server.ts, decision 0028): a page every visitor
// gets alike is drawn once and served again; each answer has its own CSP nonce, and a page whose
// data changed is drawn afresh.

async function answer(response: APIResponse) {
  const html = await response.text();
  const policyNonce = /'nonce-([^']+)'/.exec(response.headers()["content-security-policy"] ?? "")?.[1];
  const nonces = new Set([...html.matchAll(/ nonce="([^"]+)"/g)].map((match) => match[1]));
  return { html, policyNonce, nonces, cache: response.headers()["x-render-cache"] };
}

test("a page drawn once is served again, each time with its own nonce, the one its policy names", async ({
  request,
}) => {
  const answers = [];
  for (let i = 0; i < 3; i++) answers.push(await answer(await request.get("/about")));
  expect(answers.map((a) => a.cache)).toContain("hit");
  for (const { policyNonce, nonces } of answers) {
    expect(policyNonce).toBeTruthy();
    expect([...nonces]).toEqual([policyNonce]);
  }
  expect(new Set(answers.map((a) => a.policyNonce)).size).toBe(3);
  const withoutNonce = answers.map((a) => a.html.replaceAll(a.policyNonce ?? "", "NONCE"));
  expect(withoutNonce[1]).toBe(withoutNonce[0]);
  expect(withoutNonce[2]).toBe(withoutNonce[0]);
});

test("a page served from the cache comes alive in the browser as a drawn one does", async ({
  page,
  request,
  javaScriptEnabled,
}) => {
  await request.get("/terms");
  const response = await page.goto("/terms");
  expect(response?.headers()["x-render-cache"]).toBe("hit");
  await expect(page.getByRole("heading", { level: 1, name: "利用規約" })).toBeVisible();
  if (javaScriptEnabled) await page.evaluate(() => Object.assign(window, { shopTestMark: true }));
  await page.getByRole("contentinfo").getByRole("link", { name: "当サイトについて" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "当サイトについて" })).toBeVisible();
  // With JavaScript the cached page hydrated: the link was followed without a page load.
  expect(await page.evaluate(() => "shopTestMark" in window)).toBe(javaScriptEnabled);
});

test("a contest put on sale shows on the home page at once: a page is drawn again when its data changes", async ({
  request,
}) => {
  const name = `キャッシュ確認大会${Date.now()}`;
  await request.get("/");
  const before = await request.get("/");
  expect(before.headers()["x-render-cache"]).toBe("hit");
  expect(await before.text()).not.toContain(name);
  const id = withDb(
    (db) =>
      db
        .prepare(
          "insert into contests (name, slug_key, video_published, site_public_status, created_at) values (?, ?, 1, '公開', ?)",
        )
        .run(name, slugKey(name), Date.now()).lastInsertRowid,
  );
  try {
    const after = await request.get("/");
    expect(after.headers()["x-render-cache"]).toBe("miss");
    expect(await after.text()).toContain(name);
  } finally {
    withDb((db) => db.prepare("delete from contests where id = ?").run(id));
  }
  expect(await (await request.get("/")).text()).not.toContain(name);
});

test("a logged-in customer's pages, posts and pages not named are never served from it", async ({
  page,
  context,
  baseURL,
}) => {
  const customer = await createUser({ email: uniqueEmail("render-cache") });
  await putSessionCookie(context, baseURL ?? "", { userId: customer.id, loggedInAt: Date.now() });
  for (const path of ["/", "/about"]) {
    await page.goto(path);
    const response = await page.goto(path);
    expect(response?.headers()["x-render-cache"], path).toBeUndefined();
    await expect(page.getByRole("banner").getByLabel("アカウントメニュー")).toBeVisible();
  }
  for (const path of ["/contact", "/order-lookup", "/account"]) {
    const response = await page.request.get(path);
    expect(response.headers()["x-render-cache"], path).toBeUndefined();
  }
});
