import crypto from "node:crypto";
import { expect } from "vitest";
import { db } from "~/server/db/client.server";
import { checkouts } from "~/server/db/schema";
import { recordPayment } from "~/server/orders/record-payment.server";
import { readOrderMetadata } from "~/server/payments/order-metadata.server";
import { contestSlug } from "~/lib/rules/slug";
import { callRoute, sessionOf } from "./route";
import { formRequest, type seedContest } from "./shop";
import type { ReceivedMail } from "./smtp";

type Shop = ReturnType<typeof seedContest>;
type Line = { athleteId: number; category: string; formatId: number };

/** Drives the storefront's routes as a browser without JS would: order form → confirmation (the code is mailed). */
export async function checkoutUntilConfirmed(shop: Shop, lines: Line[]) {
  const slug = contestSlug(shop.name);
  const fields: [string, string][] = [["intent", "next"]];
  lines.forEach((line, i) =>
    fields.push(
      [`items[${i}].category`, line.category],
      [`items[${i}].athleteId`, String(line.athleteId)],
      [`items[${i}].formatId`, String(line.formatId)],
    ),
  );
  const orderForm = await import("~/routes/storefront/order-form");
  const created = await callRoute(
    orderForm.action,
    formRequest(`/order-form/${encodeURIComponent(slug)}`, fields),
    { contestSlug: slug },
  );
  const cookie = sessionOf(created);
  const email = `c${Math.random().toString(36).slice(2, 10)}@example.jp`;
  const confirmation = await import("~/routes/checkout/order-confirmation");
  const saved = await callRoute(
    confirmation.action,
    formRequest(
      "/order-confirmation",
      [
        ["email", email],
        ["name", "テスト 太郎"],
      ],
      cookie,
    ),
  );
  expect(saved.location).toBe("/email-verification");
  return { cookie, email };
}

/** The code mailed last to `email`, entered on /email-verification: the checkout is ready for payment. */
export async function enterMailedCode(cookie: string, email: string, received: ReceivedMail[]) {
  const code = /\b(\d{6})\b/.exec(received.filter((m) => m.to.includes(email)).at(-1)?.text ?? "")?.[1] ?? "";
  const verification = await import("~/routes/checkout/email-verification");
  const verified = await callRoute(
    verification.action,
    formRequest(
      "/email-verification",
      [
        ["intent", "verify"],
        ["code", code],
      ],
      cookie,
    ),
  );
  expect(verified.location).toBe("/payment");
}

/** The same, then the mailed code entered: the checkout is ready for payment. */
export async function checkoutUntilVerified(shop: Shop, lines: Line[], received: ReceivedMail[]) {
  const { cookie, email } = await checkoutUntilConfirmed(shop, lines);
  await enterMailedCode(cookie, email, received);
  return { cookie, email };
}

/** 注文内容の確認 or お支払い opened with the session's cookie (their loaders). */
export async function openCheckoutPage(path: "/payment" | "/order-confirmation", cookie: string) {
  const route =
    path === "/payment"
      ? await import("~/routes/checkout/payment")
      : await import("~/routes/checkout/order-confirmation");
  return callRoute(route.loader, new Request(`http://shop.test${path}`, { headers: { Cookie: cookie } }));
}

/** The test provider's card form posted (JS off), with the total its page showed. */
export async function payByTestCard(cookie: string, shownTotal: number) {
  const payment = await import("~/routes/checkout/payment");
  return callRoute(
    payment.action,
    formRequest(
      "/payment",
      [
        ["cardholderName", "TARO"],
        ["cardNumber", "4242424242424242"],
        ["expiry", "12/39"],
        ["cvc", "123"],
        ["shownTotal", String(shownTotal)],
      ],
      cookie,
    ),
  );
}

/**
 * An order made the shop's way: a checkout of one vertical line of `shop.onSale`, verified with the
 * mailed code, then paid (recordPayment, as the payment report does). `checkout` overrides the
 * checkout's columns (its contest, the auto-login account's choice and password hash).
 */
export function payVerifiedCheckout(
  shop: Shop,
  checkout: Partial<typeof checkouts.$inferInsert> & { customerEmail: string; customerName: string },
) {
  const id = crypto.randomBytes(16).toString("base64url");
  db()
    .insert(checkouts)
    .values({
      id,
      contestId: shop.contestId,
      items: [],
      emailVerifiedAt: new Date(),
      status: "verified",
      pricedLines: [
        {
          category: "A部門",
          athleteId: shop.onSale.id,
          athleteNumber: 1,
          athleteName: "選手",
          formatId: shop.vertical.id,
          style: "縦",
          orientation: "vertical",
          price: 3000,
          listPrice: 3000,
          discounts: [],
        },
      ],
      ...checkout,
    })
    .run();
  const made = recordPayment({
    id: `pi_${id}`,
    status: "succeeded",
    amount: 3000,
    currency: "jpy",
    checkoutId: id,
    clientSecret: null,
    konbini: null,
    carriedOrder: readOrderMetadata(null),
  });
  if (!made.ok) throw new Error("no order");
  return made;
}

/** A checkout of the contest in a new browser session, stopped before its address (the order form posted once). */
export async function newCheckout(shop: Shop): Promise<string> {
  const slug = contestSlug(shop.name);
  const orderForm = await import("~/routes/storefront/order-form");
  const created = await callRoute(
    orderForm.action,
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
