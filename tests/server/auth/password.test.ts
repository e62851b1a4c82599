import { describe, expect, it } from "vitest";
import { contestSlug } from "~/lib/rules/slug";
import {
  HASHING_BUSY_MESSAGE,
  HASHING_BUSY_RETRY_AFTER_SECONDS,
  HashingBusyError,
  hashPassword,
  verifyPassword,
} from "~/server/auth/password.server";
import { AUTO_LOGIN_PASSWORD_LIMITS } from "~/server/checkout/steps.server";
import { hitRateLimit } from "~/server/http/rate-limit.server";
import { getSession } from "~/server/http/session.server";
import { createUser, loginPost } from "../../helpers/accounts";
import { fastHashPassword } from "../../helpers/fast-password";
import { callRoute, sessionOf } from "../../helpers/route";
import { formRequest, seedContest } from "../../helpers/shop";

describe("password hashing", () => {
  it("uses scrypt at OWASP parameters and verifies only the right password", async () => {
    const hash = await hashPassword("Correct-Horse-9");
    expect(hash).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(hash).not.toContain("Correct-Horse-9");
    expect(await verifyPassword("Correct-Horse-9", hash, "password-check:203.0.113.1")).toBe(true);
    expect(await verifyPassword("correct-horse-9", hash, "password-check:203.0.113.1")).toBe(false);
    expect(await verifyPassword("anything", "not-a-hash", "password-check:203.0.113.1")).toBe(false);
  });

  it("salts each hash", async () => {
    expect(await hashPassword("same")).not.toBe(await hashPassword("same"));
  });
});

describe("hashing under a flood", () => {
  const confirmation = () => import("~/routes/checkout/order-confirmation");
  const autoLoginFields = (email: string): [string, string][] => [
    ["email", email],
    ["name", "連打 太郎"],
    ["autoLogin", "on"],
    ["password", "Flood-Pass-2025"],
    ["confirmPassword", "Flood-Pass-2025"],
  ];

  /** A new checkout ready for its confirmation step, as a browser's cookie. */
  async function checkoutCookie(shop: ReturnType<typeof seedContest>) {
    const { action } = await import("~/routes/storefront/order-form");
    const slug = contestSlug(shop.name);
    const created = await callRoute(
      action,
      formRequest(`/order-form/${encodeURIComponent(slug)}`, [
        ["intent", "next"],
        ["items[0].category", "A部門"],
        ["items[0].athleteId", String(shop.onSale.id)],
        ["items[0].formatId", String(shop.vertical.id)],
      ]),
      { contestSlug: slug },
    );
    return sessionOf(created);
  }

  async function timed<T>(step: () => Promise<T>): Promise<{ value: T; ms: number; endedAt: number }> {
    const started = performance.now();
    const value = await step();
    const endedAt = performance.now();
    return { value, ms: endedAt - started, endedAt };
  }

  it("30 anonymous auto-login posts to /order-confirmation at once: past the bound they get 429 at once (Retry-After, what was typed kept), and a login meanwhile keeps its speed", async () => {
    const shop = seedContest();
    const cookies: string[] = [];
    for (let i = 0; i < 30; i++) cookies.push(await checkoutCookie(shop));
    await createUser("flood-owner@example.jp", "Owner-Pass-2025");
    const { action: login } = await import("~/routes/account/login");
    const logInOnce = () =>
      timed(() =>
        callRoute(
          login,
          formRequest("/login", [
            ["email", "flood-owner@example.jp"],
            ["password", "Owner-Pass-2025"],
          ]),
        ),
      );
    const quiet = await logInOnce();
    expect(quiet.value.status).toBe(302);

    const { action } = await confirmation();
    const flood = cookies.map((cookie, i) =>
      timed(() =>
        callRoute(action, formRequest("/order-confirmation", autoLoginFields(`f${i}@example.jp`), cookie)),
      ),
    );
    const underFlood = logInOnce();
    const posts = await Promise.all(flood);
    const loggedIn = await underFlood;

    const refused = posts.filter((post) => post.value.status === 429);
    const accepted = posts.filter((post) => post.value.status === 302);
    console.log(
      `login alone ${quiet.ms.toFixed(0)} ms, under the flood ${loggedIn.ms.toFixed(0)} ms; ` +
        `${accepted.length} posts hashed, ${refused.length} refused, the slowest refusal in ${Math.max(...refused.map((p) => p.ms)).toFixed(0)} ms`,
    );
    expect(accepted.length + refused.length).toBe(30);
    // Two hashing and four waiting; everyone past them is refused.
    expect(accepted.length).toBeLessThanOrEqual(6);
    expect(refused.length).toBeGreaterThanOrEqual(24);
    for (const post of refused) {
      // At once: no refusal waited for a hash to finish.
      expect(post.ms).toBeLessThan(quiet.ms);
      expect(post.value.headers.get("Retry-After")).toBe(String(HASHING_BUSY_RETRY_AFTER_SECONDS));
      const shown = JSON.stringify(post.value.data);
      expect(shown).toContain(HASHING_BUSY_MESSAGE);
      expect(shown).toContain("@example.jp");
      expect(shown).toContain("連打 太郎");
      expect(shown).not.toContain("Flood-Pass-2025");
    }
    // The login went ahead of the waiting new passwords: only the two hashing when it arrived (and
    // at most one started beside it) finished first. Order, not wall-clock time: a busy machine
    // slows every hash alike, but cannot put the login behind the queue.
    expect(loggedIn.value.status).toBe(302);
    const finishedFirst = accepted.filter((post) => post.endedAt < loggedIn.endedAt).length;
    expect(accepted.length).toBeGreaterThanOrEqual(5);
    expect(finishedFirst).toBeLessThanOrEqual(3);
  });

  it("login flood: 40 wrong passwords at once from one address fill only that address's place in the check line; a login from another address meanwhile is served at once, not refused and not behind the flood", async () => {
    await createUser("flood-victim@example.jp", "Victim-Pass-2025");
    await createUser("bystander@example.jp", "Bystander-Pass-2025");
    const { action: login } = await import("~/routes/account/login");
    const attempt = (ip: string, email: string, password: string) =>
      timed(() => callRoute(login, loginPost(ip, { email, password })));
    const quiet = await attempt("203.0.113.70", "bystander@example.jp", "Bystander-Pass-2025");
    expect(quiet.value.status).toBe(302);
    // Addresses without an account are checked against a decoy hash, made by the first of them.
    expect((await attempt("203.0.113.72", "first-unknown@example.jp", "x")).value.status).toBe(401);

    // The flood, from one address: wrong passwords for an account and for addresses without one.
    const flood = Array.from({ length: 40 }, (_, i) =>
      attempt("198.51.100.66", i % 2 ? "flood-victim@example.jp" : `nobody-${i}@example.jp`, `Guess-${i}`),
    );
    const bystander = attempt("203.0.113.71", "bystander@example.jp", "Bystander-Pass-2025");
    const floodAnswers = await Promise.all(flood);
    const loggedIn = await bystander;

    const checked = floodAnswers.filter((answer) => answer.value.status !== 429);
    const refused = floodAnswers.filter((answer) => answer.value.status === 429);
    console.log(
      `login flood: login alone ${quiet.ms.toFixed(0)} ms, beside 40 wrong passwords from one address ` +
        `${loggedIn.ms.toFixed(0)} ms (${loggedIn.value.status}); ${checked.length} of the flood checked, ${refused.length} refused`,
    );
    // The other address is logged in, and took the first slot that came free: only the two hashes
    // running when she came (and at most one started beside hers) finished before her. Order, not
    // wall-clock time: a busy machine slows every hash alike, but cannot put her behind the flood.
    expect(loggedIn.value.status).toBe(302);
    expect(checked.filter((answer) => answer.endedAt < loggedIn.endedAt).length).toBeLessThanOrEqual(3);
    // The flood got two running and its own few waiting; the rest was refused at once, unhashed.
    expect(checked.length).toBeLessThanOrEqual(6);
    expect(refused.length).toBeGreaterThanOrEqual(34);
    // Refused at once: by the address's limit of 30 attempts (counted before any hash), or past its
    // place in the line (HashingBusy); every refusal was answered before the first check ended.
    expect(Math.max(...refused.map((answer) => answer.endedAt))).toBeLessThan(
      Math.min(...checked.map((answer) => answer.endedAt)),
    );
    for (const answer of refused) expect(Number(answer.value.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(
      refused.filter(
        (answer) => answer.value.headers.get("Retry-After") === String(HASHING_BUSY_RETRY_AFTER_SECONDS),
      ).length,
    ).toBeGreaterThan(0);
  });

  it("login flood: with the whole check line full (four addresses with four waiting each), a fifth address still gets a place: the longest line gives up its newest; an address past its own four is refused", async () => {
    // A cheap hash: the line is the same for any cost, and every check below is asked for in one
    // tick, before any can finish.
    const hash = await fastHashPassword("Right-Pass-2026");
    const check = (address: string, password = "wrong") =>
      verifyPassword(password, hash, `password-check:${address}`).then(
        (ok) => ({ address, ok, busy: false }),
        (error: unknown) => {
          if (!(error instanceof HashingBusyError)) throw error;
          return { address, ok: false, busy: true };
        },
      );
    const answers = [check("198.51.100.1"), check("198.51.100.1")];
    for (const n of [1, 2, 3, 4]) for (let i = 0; i < 4; i++) answers.push(check(`198.51.100.${n}`));
    // The fifth address's check, with the line full, and a fifth waiting check of the second.
    const newcomer = check("203.0.113.5", "Right-Pass-2026");
    answers.push(check("198.51.100.2"));
    const done = await Promise.all(answers);
    expect(await newcomer).toEqual({ address: "203.0.113.5", ok: true, busy: false });
    const busy = done.filter((answer) => answer.busy).map((answer) => answer.address);
    // One place of the first address with the most waiting went to the newcomer; the second
    // address's fifth was refused by its own bound.
    expect(busy.sort()).toEqual(["198.51.100.1", "198.51.100.2"]);
  });

  it("the checkout's auto-login password is counted per checkout before it is hashed", async () => {
    const shop = seedContest();
    const cookie = await checkoutCookie(shop);
    const checkoutId = (
      await getSession(new Request("http://shop.test/", { headers: { Cookie: cookie } }))
    ).get("checkoutId");
    const { perCheckout, windowMs } = AUTO_LOGIN_PASSWORD_LIMITS;
    for (let i = 0; i < perCheckout; i++)
      hitRateLimit(`auto-login-password:${checkoutId}`, perCheckout, windowMs);
    const { action } = await confirmation();
    const post = await timed(() =>
      callRoute(action, formRequest("/order-confirmation", autoLoginFields("limit@example.jp"), cookie)),
    );
    expect(post.value.status).toBe(429);
    expect(Number(post.value.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(JSON.stringify(post.value.data)).toContain("送信回数の上限に達しました");
    // No hash was made: far quicker than one.
    expect(post.ms).toBeLessThan(100);
  });
});
