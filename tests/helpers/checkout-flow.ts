import { expect } from "vitest";
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

/** The same, then the mailed code entered: the checkout is ready for payment. */
export async function checkoutUntilVerified(shop: Shop, lines: Line[], received: ReceivedMail[]) {
  const { cookie, email } = await checkoutUntilConfirmed(shop, lines);
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
  return { cookie, email };
}
