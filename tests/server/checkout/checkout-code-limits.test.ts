import { describe, expect, it } from "vitest";
import { contestSlug } from "~/lib/rules/slug";
import { action as adminLoginAction } from "~/routes/admin/login";
import { loader as secondFactorLoader } from "~/routes/admin/second-factor";
import { loader as emailStatusLoader } from "~/routes/api/email-status";
import * as confirmationRoute from "~/routes/checkout/order-confirmation";
import * as verificationRoute from "~/routes/checkout/email-verification";
import { loader as emailSupportLoader } from "~/routes/storefront/email-support";
import { startRegistration } from "~/server/accounts/registration.server";
import { logIn } from "~/server/auth/login/session-login.server";
import { setClock } from "~/server/core/clock.server";
import { commitSession } from "~/server/http/session.server";
import { createUser, newSession, requestFrom } from "../../helpers/accounts";
import { checkoutUntilConfirmed, newCheckout } from "../../helpers/checkout-flow";
import { callRoute, sessionOf } from "../../helpers/route";
import { formRequest, seedContest } from "../../helpers/shop";
import { smtpServerForThisFile } from "../../helpers/smtp-per-file";

const smtp = smtpServerForThisFile();
const T0 = Date.UTC(2025, 5, 1, 3, 0, 0);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

type Shop = ReturnType<typeof seedContest>;

function line(shop: Shop) {
  return { athleteId: shop.onSale.id, category: "A部門", formatId: shop.vertical.id };
}

function mailsTo(address: string) {
  return smtp.received.filter((m) => m.to.includes(address));
}

function lastCode(address: string): string {
  const code = /\b(\d{6})\b/.exec(mailsTo(address).at(-1)?.text ?? "")?.[1];
  if (!code) throw new Error(`no code mailed to ${address}`);
  return code;
}

function wrongCode(right: string): string {
  return right === "000000" ? "111111" : "000000";
}

/** The confirmation step as the browser posts it: the address to verify (a code is mailed). */
function confirm(cookie: string, email: string) {
  return callRoute(
    confirmationRoute.action,
    formRequest(
      "/order-confirmation",
      [
        ["email", email],
        ["name", "テスト 太郎"],
      ],
      cookie,
    ),
  );
}

function enterCode(cookie: string, code: string) {
  return callRoute(
    verificationRoute.action,
    formRequest(
      "/email-verification",
      [
        ["intent", "verify"],
        ["code", code],
      ],
      cookie,
    ),
  );
}

function verificationPage(cookie: string) {
  return callRoute(
    verificationRoute.loader,
    new Request("http://shop.test/email-verification", { headers: { Cookie: cookie } }),
  );
}

describe("checkout codes", () => {
  it("checkout codes cannot be cycled: switching the address away and back brings no new tries, and after 10 failures the checkout starts over", async () => {
    setClock(() => T0);
    const shop = seedContest();
    const { cookie, email: victim } = await checkoutUntilConfirmed(shop, [line(shop)]);

    // Five wrong codes use up the first code.
    for (let i = 0; i < 5; i++)
      expect((await enterCode(cookie, wrongCode(lastCode(victim)))).status).toBe(400);

    // The attack: switch the address away and back, which mails a fresh code...
    const other = `other-${victim}`;
    expect((await confirm(cookie, other)).location).toBe("/email-verification");
    expect((await confirm(cookie, victim)).location).toBe("/email-verification");
    expect(mailsTo(victim)).toHaveLength(2);
    // ...but the checkout has only 5 tries left in all: the 10th wrong code starts it over.
    for (let i = 0; i < 4; i++)
      expect((await enterCode(cookie, wrongCode(lastCode(victim)))).status).toBe(400);
    const tenth = await enterCode(cookie, wrongCode(lastCode(victim)));
    expect(tenth).toMatchObject({ status: 302, location: "/email-verification" });
    // The parent is told once, with the way back to the order form...
    const page = await verificationPage(sessionOf(tenth));
    const restarted = sessionOf(page);
    expect(page.data).toMatchObject({
      restart: {
        message: expect.stringContaining("認証コードの入力に続けて失敗したため"),
        orderFormUrl: `/order-form/${encodeURIComponent(contestSlug(shop.name))}`,
      },
    });
    // ...where what they chose is still there, in a new draft without the address.
    const confirmation = await callRoute(
      confirmationRoute.loader,
      new Request("http://shop.test/order-confirmation", { headers: { Cookie: restarted } }),
    );
    expect(confirmation.data).toMatchObject({ lines: [{ athleteNumber: 1 }], customer: { email: "" } });
    expect((await verificationPage(restarted)).location).toBe("/order-confirmation");

    // Neither session can use the code still in the victim's mailbox.
    expect((await enterCode(restarted, lastCode(victim))).location).toBe("/order-confirmation");
    expect((await enterCode(cookie, lastCode(victim))).location).not.toBe("/payment");
  });

  it("wrong checkout codes count per address across checkouts: 10 in a day close the address's code step", async () => {
    setClock(() => T0);
    const shop = seedContest();
    const victim = `victim-${Math.random().toString(36).slice(2, 8)}@example.jp`;

    // Each new checkout (a new cookie) mails the address a code with its own 5 tries...
    const first = await newCheckout(shop);
    await confirm(first, victim);
    for (let i = 0; i < 5; i++) await enterCode(first, wrongCode(lastCode(victim)));
    const second = await newCheckout(shop);
    await confirm(second, `  ${victim.toUpperCase()} `);
    expect(mailsTo(victim)).toHaveLength(2);
    for (let i = 0; i < 4; i++)
      expect((await enterCode(second, wrongCode(lastCode(victim)))).status).toBe(400);
    // ...but the address has 10 in a day: the 10th starts the checkout over and says until when.
    const tenth = await enterCode(second, wrongCode(lastCode(victim)));
    expect(tenth).toMatchObject({ status: 302, location: "/email-verification" });
    expect((await verificationPage(sessionOf(tenth))).data).toMatchObject({
      restart: {
        message: expect.stringContaining("このメールアドレスは認証コードの入力に続けて失敗したため"),
      },
    });

    // A third checkout gets no code for the address (nothing is mailed) until the day has passed.
    const third = await newCheckout(shop);
    const refused = await confirm(third, victim);
    expect(refused.status).toBe(429);
    expect(JSON.stringify(refused.data)).toContain(
      "このメールアドレスは認証コードの入力に続けて失敗したため",
    );
    expect(mailsTo(victim)).toHaveLength(2);

    setClock(() => T0 + 24 * HOUR + MINUTE);
    expect((await confirm(third, victim)).location).toBe("/email-verification");
    expect(mailsTo(victim)).toHaveLength(3);
    const verified = await enterCode(third, lastCode(victim));
    expect(verified.location).toBe("/payment");
  });
});

describe("per-address mail caps", () => {
  it("a mailed code's address gets at most 5 codes an hour and 20 a day from one requester", async () => {
    const shop = seedContest();
    const target = `flooded-${Math.random().toString(36).slice(2, 8)}@example.jp`;
    // Each code from a new checkout (a new cookie, a new 60-second rule), as a script would.
    const send = async () => confirm(await newCheckout(shop), target);

    let at = T0;
    setClock(() => at);
    for (let i = 0; i < 5; i++) expect((await send()).location).toBe("/email-verification");
    const sixth = await send();
    expect(sixth.status).toBe(429);
    expect(JSON.stringify(sixth.data)).toContain(
      "このメールアドレスへの認証コードの送信回数が上限に達しました",
    );
    expect(mailsTo(target)).toHaveLength(5);
    // Registration's codes count with the checkout's: anyone can ask for both, for any address
    // (the same requester here: these requests name no client address).
    const registration = await startRegistration(
      new Request("http://localhost/register", { method: "POST" }),
      {
        name: "テスト 太郎",
        email: target,
        password: "Hanako-2025",
        confirmPassword: "Hanako-2025",
        agreesToTerms: "on",
      },
      { honeypot: false, fromOrder: false },
    );
    expect(registration).toMatchObject({ ok: false, status: 429 });
    expect(mailsTo(target)).toHaveLength(5);

    // The hour slides; the day caps it at 20.
    for (let hour = 1; hour <= 3; hour++) {
      at = T0 + hour * HOUR + MINUTE;
      for (let i = 0; i < 5; i++) expect((await send()).location).toBe("/email-verification");
      expect((await send()).status).toBe(429);
    }
    expect(mailsTo(target)).toHaveLength(20);
    at = T0 + 5 * HOUR;
    const pastDay = await send();
    expect(pastDay.status).toBe(429);
    expect(mailsTo(target)).toHaveLength(20);
    at = T0 + 24 * HOUR + 2 * MINUTE;
    expect((await send()).location).toBe("/email-verification");
    expect(mailsTo(target)).toHaveLength(21);
  });

  it("a stranger filling an admin's address with checkout codes does not keep the admin's login code from going out", async () => {
    setClock(() => T0);
    const shop = seedContest();
    const adminEmail = `cap-admin-${Math.random().toString(36).slice(2, 8)}@example.jp`;
    await createUser(adminEmail, "Admin-Pass-1234", { isAdmin: true });
    for (let i = 0; i < 5; i++) await confirm(await newCheckout(shop), adminEmail);
    expect((await confirm(await newCheckout(shop), adminEmail)).status).toBe(429);
    expect(mailsTo(adminEmail)).toHaveLength(5);

    const login = await callRoute(
      adminLoginAction,
      requestFrom("198.51.100.80", {
        url: "http://localhost/admin-login",
        method: "POST",
        body: new URLSearchParams({ email: adminEmail, password: "Admin-Pass-1234" }),
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      }),
    );
    expect(login.location).toBe("/admin-2fa-verify");
    const page = await callRoute(
      secondFactorLoader,
      requestFrom("198.51.100.80", {
        url: "http://localhost/admin-2fa-verify",
        headers: { Cookie: sessionOf(login) },
      }),
    );
    expect(page.data).toMatchObject({ mode: "email", pageMessage: null });
    expect(mailsTo(adminEmail)).toHaveLength(6);
  });
});

describe("/api/email-status", () => {
  it("/api/email-status does not name the SMTP host to the public", async () => {
    const publicAnswer = await callRoute(emailStatusLoader, new Request("http://shop.test/api/email-status"));
    expect(publicAnswer.status).toBe(200);
    expect(publicAnswer.data).toMatchObject({ emailServiceActive: true, smtpServer: null });
    expect(JSON.stringify(publicAnswer.data)).not.toContain("127.0.0.1");
    // The help page's data travels in its HTML: the same view.
    const help = await callRoute(emailSupportLoader, new Request("http://shop.test/email-support"));
    expect(JSON.stringify(help.data)).not.toContain("127.0.0.1");

    // A logged-in admin still sees which server sends the mail.
    const admin = await createUser(`status-admin-${Date.now()}@example.jp`, "Admin-Pass-1234", {
      isAdmin: true,
    });
    const session = await newSession();
    logIn(session, admin, { as: "user", admin: true });
    const cookie = (await commitSession(session)).split(";")[0] ?? "";
    const adminAnswer = await callRoute(
      emailStatusLoader,
      new Request("http://shop.test/api/email-status", { headers: { Cookie: cookie } }),
    );
    expect(adminAnswer.data).toMatchObject({ emailServiceActive: true, smtpServer: "127.0.0.1" });
  });
});
