import { describe, expect, it } from "vitest";
import * as confirmationRoute from "~/routes/checkout/order-confirmation";
import * as verificationRoute from "~/routes/checkout/email-verification";
import { startRegistration, verifyRegistrationCode } from "~/server/accounts/registration.server";
import { ADDRESS_MAIL_TOTALS, PER_REQUESTER_MAIL_CAPS } from "~/server/auth/codes/mail-caps.server";
import { ensureLoginCodeSent } from "~/server/auth/second-factor/second-factor.server";
import { logIn } from "~/server/auth/login/session-login.server";
import { setClock } from "~/server/core/clock.server";
import { createUser, newSession } from "../../../helpers/accounts";
import { callRoute } from "../../../helpers/route";
import { seedContest } from "../../../helpers/shop";
import { smtpServerForThisFile } from "../../../helpers/smtp-per-file";
import { newCheckout } from "../../../helpers/checkout-flow";

const smtp = smtpServerForThisFile();
// At the start of an hour (and well inside a UTC day), so one test's requests share their windows.
const T0 = Date.UTC(2025, 5, 1, 3, 0, 0);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const CAP_MESSAGE = "このメールアドレスへの認証コードの送信回数が上限に達しました";

type Shop = ReturnType<typeof seedContest>;

/** The caller's address as the edge hands it to the app (and as a proxy named by TRUST_PROXY=1 would). */
function fromAddress(ip: string): Record<string, string> {
  return { "X-Shop-Client-Address": ip, "X-Forwarded-For": ip };
}

function mailsTo(address: string) {
  return smtp.received.filter((m) => m.to.includes(address));
}

function lastCode(address: string): string {
  const code = /\b(\d{6})\b/.exec(mailsTo(address).at(-1)?.text ?? "")?.[1];
  if (!code) throw new Error(`no code mailed to ${address}`);
  return code;
}

function uniqueAddress(name: string): string {
  return `${name}-${Math.random().toString(36).slice(2, 8)}@example.jp`;
}

function post(path: string, ip: string, cookie: string, fields: [string, string][]) {
  return new Request(`http://shop.test${path}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Cookie: cookie,
      ...fromAddress(ip),
    },
  });
}

/** The confirmation step from `ip`: the address to verify (a code is mailed). */
function confirm(ip: string, cookie: string, email: string) {
  return callRoute(
    confirmationRoute.action,
    post("/order-confirmation", ip, cookie, [
      ["email", email],
      ["name", "テスト 花子"],
    ]),
  );
}

function verification(ip: string, cookie: string, fields: [string, string][]) {
  return callRoute(verificationRoute.action, post("/email-verification", ip, cookie, fields));
}

describe("checkout codes", () => {
  it("mail cap exhaustion: a stranger asking for checkout codes to a guest's address from his own connection cannot use up the codes she needs", async () => {
    setClock(() => T0);
    const shop = seedContest();
    const victim = uniqueAddress("guest");
    const stranger = "203.0.113.66";

    // The attack: a checkout per request (each with its own 60-second rule), until refused.
    for (let i = 0; i < 5; i++)
      expect((await confirm(stranger, await newCheckout(shop), victim)).location).toBe("/email-verification");
    const refused = await confirm(stranger, await newCheckout(shop), victim);
    expect(refused.status).toBe(429);
    expect(JSON.stringify(refused.data)).toContain(CAP_MESSAGE);
    expect(mailsTo(victim)).toHaveLength(5);

    // The guest, on her own connection, still gets her code and verifies her address.
    const guest = await newCheckout(shop);
    expect((await confirm("198.51.100.10", guest, victim)).location).toBe("/email-verification");
    expect(mailsTo(victim)).toHaveLength(6);
    const verified = await verification("198.51.100.10", guest, [
      ["intent", "verify"],
      ["code", lastCode(victim)],
    ]);
    expect(verified.location).toBe("/payment");
  });

  it("mail cap exhaustion: strangers on many connections stop at the address's total (no mail bomb), and the guest who asked first still gets her codes", async () => {
    let at = T0;
    setClock(() => at);
    const shop = seedContest();
    const victim = uniqueAddress("first");
    const [hourTotal] = ADDRESS_MAIL_TOTALS;
    const [perRequester] = PER_REQUESTER_MAIL_CAPS;

    // The guest asks first.
    const guest = await newCheckout(shop);
    expect((await confirm("198.51.100.20", guest, victim)).location).toBe("/email-verification");

    // The attack: ten connections, each to its own cap.
    let sent = 1;
    for (let host = 1; host <= 10; host++)
      for (let i = 0; i < perRequester.limit; i++) {
        const answer = await confirm(`203.0.113.${host}`, await newCheckout(shop), victim);
        if (answer.location === "/email-verification") sent++;
        else expect(JSON.stringify(answer.data)).toContain(CAP_MESSAGE);
      }
    // Bounded: the hour's total, however many connections ask.
    expect(sent).toBe(hourTotal.limit);
    expect(mailsTo(victim)).toHaveLength(hourTotal.limit);

    // The guest's checkout asked first: its resend still goes.
    at = T0 + 2 * MINUTE;
    const resent = await verification("198.51.100.20", guest, [["intent", "resend"]]);
    expect(resent.status).toBe(200);
    expect(mailsTo(victim)).toHaveLength(hourTotal.limit + 1);
    expect(
      (
        await verification("198.51.100.20", guest, [
          ["intent", "verify"],
          ["code", lastCode(victim)],
        ])
      ).location,
    ).toBe("/payment");

    // What six or more connections can still do: a newcomer waits for the next hour.
    const late = await newCheckout(shop);
    expect((await confirm("198.51.100.21", late, victim)).status).toBe(429);
    at = T0 + HOUR + MINUTE;
    expect((await confirm("198.51.100.21", late, victim)).location).toBe("/email-verification");
  });
});

describe("wrong checkout codes", () => {
  const BLOCKED = "このメールアドレスは認証コードの入力に続けて失敗したため";

  function wrong(code: string): string {
    return code === "000000" ? "111111" : "000000";
  }

  /** A stranger's checkout for the address, and its 10 wrong codes over two mailed codes (then it starts over). */
  async function spendWrongCodes(shop: Shop, ip: string, victim: string, clock: { at: number }) {
    const cookie = await newCheckout(shop);
    expect((await confirm(ip, cookie, victim)).location).toBe("/email-verification");
    for (let i = 0; i < 5; i++)
      await verification(ip, cookie, [
        ["intent", "verify"],
        ["code", wrong(lastCode(victim))],
      ]);
    clock.at += 61_000;
    expect((await verification(ip, cookie, [["intent", "resend"]])).status).toBe(200);
    for (let i = 0; i < 5; i++)
      await verification(ip, cookie, [
        ["intent", "verify"],
        ["code", wrong(lastCode(victim))],
      ]);
  }

  it("mail cap exhaustion: a stranger entering wrong codes for a guest's address does not close it to her own checkout", async () => {
    const clock = { at: T0 };
    setClock(() => clock.at);
    const shop = seedContest();
    const victim = uniqueAddress("wrong");
    const stranger = "203.0.113.88";

    // The attack: ten wrong codes for the address, and the stranger's next checkout is closed to it.
    await spendWrongCodes(shop, stranger, victim, clock);
    const closed = await confirm(stranger, await newCheckout(shop), victim);
    expect(closed.status).toBe(429);
    expect(JSON.stringify(closed.data)).toContain(BLOCKED);

    // The guest, on her own connection, gets her code and verifies her address.
    const guest = await newCheckout(shop);
    expect((await confirm("198.51.100.40", guest, victim)).location).toBe("/email-verification");
    expect(
      (
        await verification("198.51.100.40", guest, [
          ["intent", "verify"],
          ["code", lastCode(victim)],
        ])
      ).location,
    ).toBe("/payment");
  });

  it("mail cap exhaustion: wrong codes from many connections stop at the address's total of 50 a day; the guest who asked first can still verify", async () => {
    const clock = { at: T0 };
    setClock(() => clock.at);
    const shop = seedContest();
    const victim = uniqueAddress("guessed");
    const guest = await newCheckout(shop);
    expect((await confirm("198.51.100.50", guest, victim)).location).toBe("/email-verification");
    const guestCode = lastCode(victim);

    for (let host = 1; host <= 5; host++)
      await spendWrongCodes(shop, `203.0.113.${100 + host}`, victim, clock);
    // The guesses at the address are bounded: a sixth connection's checkout gets no code.
    const sixth = await confirm("203.0.113.106", await newCheckout(shop), victim);
    expect(sixth.status).toBe(429);
    expect(JSON.stringify(sixth.data)).toContain(BLOCKED);

    // The guest's checkout asked first: her code (still within its 10 minutes) is taken.
    expect(
      (
        await verification("198.51.100.50", guest, [
          ["intent", "verify"],
          ["code", guestCode],
        ])
      ).location,
    ).toBe("/payment");
  });
});

describe("registration codes", () => {
  it("mail cap exhaustion: a stranger registering a person's address over and over does not use up her registration codes", async () => {
    setClock(() => T0);
    const victim = uniqueAddress("register");
    const register = (ip: string) =>
      startRegistration(
        new Request("http://shop.test/register", { method: "POST", headers: fromAddress(ip) }),
        {
          name: "テスト 花子",
          email: victim,
          password: "Hanako-2025",
          confirmPassword: "Hanako-2025",
          agreesToTerms: "on",
        },
        { honeypot: false, fromOrder: false },
      );
    for (let i = 0; i < 5; i++) expect(await register("203.0.113.77")).toMatchObject({ ok: true });
    expect(await register("203.0.113.77")).toMatchObject({
      ok: false,
      status: 429,
      message: expect.stringContaining(CAP_MESSAGE),
    });
    expect(mailsTo(victim)).toHaveLength(5);

    expect(await register("198.51.100.30")).toMatchObject({ ok: true });
    expect(mailsTo(victim)).toHaveLength(6);
  });
});

describe("wrong registration codes", () => {
  it("mail cap exhaustion: guesses at an address's registration codes stay bounded however many connections ask (10 a day each, 50 in all), and the registration that asked first still completes", async () => {
    setClock(() => T0);
    const victim = uniqueAddress("guess-register");
    const values = {
      name: "テスト 花子",
      email: victim,
      password: "Hanako-2025",
      confirmPassword: "Hanako-2025",
      agreesToTerms: "on" as const,
    };
    const requestFrom = (ip: string) =>
      new Request("http://shop.test/register/verify", { method: "POST", headers: fromAddress(ip) });
    const register = async (ip: string) => {
      const started = await startRegistration(requestFrom(ip), values, { honeypot: false, fromOrder: false });
      if (!started.ok) throw new Error(started.message);
      return started.registration;
    };
    const wrong = () => (lastCode(victim) === "000000" ? "111111" : "000000");

    const owner = await register("198.51.100.60");
    const ownerCode = lastCode(victim);

    // The attack: five connections, two registrations each, five wrong codes at each.
    for (let host = 1; host <= 5; host++)
      for (let round = 0; round < 2; round++) {
        const guessing = await register(`203.0.113.${150 + host}`);
        for (let i = 0; i < 5; i++)
          expect(
            verifyRegistrationCode(guessing, wrong(), requestFrom(`203.0.113.${150 + host}`)),
          ).toMatchObject({
            ok: false,
          });
      }
    // A connection past its 10 is closed to the address, and so is a sixth past the 50.
    const again = await register("203.0.113.151");
    expect(verifyRegistrationCode(again, wrong(), requestFrom("203.0.113.151"))).toMatchObject({
      ok: false,
      status: 429,
      message: expect.stringContaining("このメールアドレスは認証コードの入力に続けて失敗したため"),
    });
    const sixth = await register("203.0.113.156");
    expect(verifyRegistrationCode(sixth, lastCode(victim), requestFrom("203.0.113.156"))).toMatchObject({
      ok: false,
      status: 429,
    });

    // The owner's registration asked first: her code still makes her account.
    expect(verifyRegistrationCode(owner, ownerCode, requestFrom("198.51.100.60"))).toEqual({
      ok: true,
      email: victim,
    });
  });
});

describe("admin login codes", () => {
  it("mail cap exhaustion: an admin logging in ten times in an hour gets each login's code; a script with her password stops at the backstop", async () => {
    let at = T0;
    setClock(() => at);
    const email = uniqueAddress("admin");
    const admin = await createUser(email, "Admin-Pass-1234", { isAdmin: true });
    const login = async () => {
      const session = await newSession();
      logIn(session, admin, { as: "pending-second-factor", redirectTo: "/admin" });
      return ensureLoginCodeSent(session);
    };

    // Normal use: a login every few minutes (new devices, a closed browser), each mails its code.
    for (let i = 0; i < 10; i++) {
      at = T0 + i * 5 * MINUTE;
      expect(await login()).toBeNull();
    }
    expect(mailsTo(email)).toHaveLength(10);

    // The backstop: 30 an hour, whoever has the password (a new login every 30 s).
    for (let i = 10; i <= 30; i++) {
      at = T0 + 46 * MINUTE + (i - 10) * 30_000;
      if (i < 30) expect(await login()).toBeNull();
      else expect(await login()).toContain(CAP_MESSAGE);
    }
    expect(mailsTo(email)).toHaveLength(30);
  });
});
