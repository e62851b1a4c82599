import { expect, test, type APIRequestContext } from "@playwright/test";
import { createUserInDb, randomIp } from "../support/account-helpers";
import { uniqueEmail } from "../support/helpers";

/**
 * Every form action of the accounts feature, posted the way no browser would: missing
 * fields, huge strings, wrong types and content types, repeated fields. None may answer 5xx.
 */

test.beforeEach(async ({ context }) => {
  await context.setExtraHTTPHeaders({ "X-Forwarded-For": randomIp() });
});

const HUGE = "あ".repeat(600); // 1.8 kB each: under the form size limit, far over every field's
const TOO_BIG = "x".repeat(200_000);

type Body = {
  label: string;
  oversize?: true;
  send: (request: APIRequestContext, url: string) => ReturnType<APIRequestContext["post"]>;
};

const urlencoded = (body: string) => (request: APIRequestContext, url: string) =>
  request.post(url, {
    data: body,
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    maxRedirects: 0,
  });

const BODIES: Body[] = [
  { label: "nothing", send: (request, url) => request.post(url, { maxRedirects: 0 }) },
  { label: "an empty form", send: urlencoded("") },
  {
    label: "huge strings",
    send: urlencoded(
      ["name", "email", "password", "confirmPassword", "code", "newPassword", "intent", "redirectTo", "token"]
        .map((k) => `${k}=${encodeURIComponent(HUGE)}`)
        .join("&"),
    ),
  },
  { label: "a body over the size limit", oversize: true, send: urlencoded(`email=${TOO_BIG}`) },
  {
    label: "repeated fields",
    send: urlencoded(
      "name=a&name=b&email=a%40example.jp&email=b%40example.jp&password=Aa345678&password=Bb345678&confirmPassword=Aa345678&agreesToTerms=on&agreesToTerms=on&intent=verify&intent=change&code=1&code=2&newPassword=x&newPassword=y&redirectTo=%2F&redirectTo=%2F%2Fevil.com",
    ),
  },
  {
    label: "wrong types",
    send: urlencoded(
      "email[]=x&password[a]=b&agreesToTerms=yes&code=abcdef&intent=%00&via=dialog&newPassword=&confirmPassword=",
    ),
  },
  {
    label: "a JSON body",
    send: (request, url) =>
      request.post(url, { data: { email: 1, password: ["x"], code: { a: 1 } }, maxRedirects: 0 }),
  },
  {
    label: "plain text",
    send: (request, url) =>
      request.post(url, {
        data: "\u0000\u0001 not a form",
        headers: { "Content-Type": "text/plain" },
        maxRedirects: 0,
      }),
  },
  {
    label: "multipart with a file",
    send: (request, url) =>
      request.post(url, {
        multipart: {
          email: "a@example.jp",
          password: { name: "p.bin", mimeType: "application/octet-stream", buffer: Buffer.from([0, 1, 2]) },
        },
        maxRedirects: 0,
      }),
  },
  {
    label: "a broken multipart body",
    send: (request, url) =>
      request.post(url, {
        data: "--x\r\nbroken",
        headers: { "Content-Type": "multipart/form-data; boundary=x" },
        maxRedirects: 0,
      }),
  },
];

/** The forms that read their body; elsewhere (no action, logout) an oversized body only tests the HTTP server. */
const FORMS = [
  "/register",
  "/login",
  "/register/verify",
  "/account/password",
  "/forgot-password",
  "/reset-password",
  "/account/earlier-orders",
];

async function expectNo5xx(request: APIRequestContext, url: string) {
  for (const body of BODIES) {
    if (body.oversize && !FORMS.includes(new URL(url, "http://x").pathname)) continue;
    const response = await body.send(request, url);
    expect(response.status(), `${body.label} → ${url}`).toBeLessThan(500);
  }
}

test("the account forms answer malformed posts with 4xx (or a redirect), never 5xx", async ({ page }) => {
  const request = page.request;
  // Logged out.
  for (const url of [
    "/register",
    "/login",
    "/register/verify",
    "/account/password",
    "/logout",
    "/forgot-password",
    "/reset-password",
    "/reset-password?token=not-a-token",
    "/account/earlier-orders",
  ]) {
    await expectNo5xx(request, url);
  }

  // With a registration waiting for its code.
  const response = await request.post("/register", {
    form: {
      name: "山田 花子",
      email: uniqueEmail("abuse"),
      password: "Abuse-2025",
      confirmPassword: "Abuse-2025",
      agreesToTerms: "on",
    },
  });
  expect(response.url()).toMatch(/\/register\/verify$/);
  await expectNo5xx(request, "/register/verify");
  await expectNo5xx(request, "/register/verify?index");

  // Logged in.
  const email = uniqueEmail("abuser");
  await createUserInDb(email, "Abuser-Pass-1");
  const login = await request.post("/login", { form: { email, password: "Abuser-Pass-1" } });
  expect(login.ok()).toBe(true);
  for (const url of [
    "/account/password",
    "/account/password?step=change",
    "/login",
    "/register",
    "/account/earlier-orders",
    "/account/earlier-orders?token=not-a-token",
  ])
    await expectNo5xx(request, url);
  for (const intent of ["send", "resend", "verify", "change"]) {
    const answer = await request.post("/account/password", {
      form: { intent, via: "dialog", code: "12", newPassword: HUGE, confirmPassword: 1 },
    });
    expect(answer.status(), intent).toBeLessThan(500);
  }

  // Still logged in and working.
  await page.goto("/account");
  await expect(
    page.getByRole("region", { name: "登録情報" }).getByText(email, { exact: true }),
  ).toBeVisible();
});
