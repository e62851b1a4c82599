import { describe, expect, it } from "vitest";
import { contestSlug } from "~/lib/rules/slug";
import { action as logoutAction } from "~/routes/account/logout";
import * as confirmationRoute from "~/routes/checkout/order-confirmation";
import * as verificationRoute from "~/routes/checkout/email-verification";
import { loader as paymentLoader } from "~/routes/checkout/payment";
import { logIn } from "~/server/auth/login/session-login.server";
import { commitSession } from "~/server/http/session.server";
import { createUser, newSession } from "../../../helpers/accounts";
import { callRoute, sessionOf } from "../../../helpers/route";
import { formRequest, seedContest } from "../../../helpers/shop";
import { smtpServerForThisFile } from "../../../helpers/smtp-per-file";

const smtp = smtpServerForThisFile();

function page(path: string, cookie: string) {
  return new Request(`http://shop.test${path}`, { headers: { Cookie: cookie } });
}

describe("logout", () => {
  it("checkout after logout: the next person on the browser sees neither the name nor the e-mail of the customer who logged out on /order-confirmation or /payment", async () => {
    const shop = seedContest();
    const email = `logout-${Math.random().toString(36).slice(2, 8)}@example.jp`;
    const name = "ログアウト 花子";
    const user = await createUser(email, "Hanako-Pass-1");
    const session = await newSession();
    logIn(session, user);
    let cookie = (await commitSession(session)).split(";")[0] ?? "";

    // The customer, logged in, orders, gives her name and address and verifies it.
    const slug = contestSlug(shop.name);
    const orderForm = await import("~/routes/storefront/order-form");
    const drafted = await callRoute(
      orderForm.action,
      formRequest(
        `/order-form/${encodeURIComponent(slug)}`,
        [
          ["intent", "next"],
          ["items[0].category", "A部門"],
          ["items[0].athleteId", String(shop.onSale.id)],
          ["items[0].formatId", String(shop.vertical.id)],
        ],
        cookie,
      ),
      { contestSlug: slug },
    );
    cookie = sessionOf(drafted) || cookie;
    const confirmed = await callRoute(
      confirmationRoute.action,
      formRequest(
        "/order-confirmation",
        [
          ["email", email],
          ["name", name],
        ],
        cookie,
      ),
    );
    cookie = sessionOf(confirmed) || cookie;
    if (confirmed.location === "/email-verification") {
      const code = /\b(\d{6})\b/.exec(
        smtp.received.filter((m) => m.to.includes(email)).at(-1)?.text ?? "",
      )?.[1];
      const verified = await callRoute(
        verificationRoute.action,
        formRequest(
          "/email-verification",
          [
            ["intent", "verify"],
            ["code", code ?? ""],
          ],
          cookie,
        ),
      );
      cookie = sessionOf(verified) || cookie;
    }
    // Before the logout, her pages carry her name and address (what the attack reads).
    const before = await callRoute(paymentLoader, page("/payment", cookie));
    expect(before.status).toBe(200);
    expect(JSON.stringify(before.data)).toContain(email);

    // She logs out; the next person opens the checkout's pages on the same browser.
    const loggedOut = await callRoute(logoutAction, formRequest("/logout", [], cookie));
    expect(loggedOut.location).toBe("/");
    const next = sessionOf(loggedOut);
    for (const [path, loader] of [
      ["/order-confirmation", confirmationRoute.loader],
      ["/payment", paymentLoader],
    ] as const) {
      const seen = await callRoute(loader, page(path, next));
      expect(JSON.stringify(seen.data), path).not.toContain(email);
      expect(JSON.stringify(seen.data), path).not.toContain(name);
      expect(seen.status, path).toBe(302);
    }
  });
});
