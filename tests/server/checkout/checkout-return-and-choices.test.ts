import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { contestSlug } from "~/lib/rules/slug";
import { PAYMENT_PROCESSING_MESSAGE, TOTAL_CHANGED_MESSAGE } from "~/server/checkout/payment.server";
import { db } from "~/server/db/client.server";
import { athletes, categories, checkouts, orders } from "~/server/db/schema";
import { athletePrices } from "~/lib/rules/pricing";
import { orderFormOptions } from "~/server/catalog/pricing.server";
import { priceItems } from "~/server/promotions/order-pricing.server";
import { paymentProvider, testProvider } from "~/server/payments/index.server";
import { logIn } from "~/server/auth/login/session-login.server";
import { commitSession, getSession } from "~/server/http/session.server";
import { checkoutUntilVerified, openCheckoutPage, payByTestCard } from "../../helpers/checkout-flow";
import { createUser } from "../../helpers/accounts";
import { callRoute, sessionOf } from "../../helpers/route";
import { formRequest, seedContest } from "../../helpers/shop";
import { smtpServerForThisFile } from "../../helpers/smtp-per-file";

const smtp = smtpServerForThisFile();

type Shop = ReturnType<typeof seedContest>;

async function postOrderForm(shop: Shop, formatId: number, cookie?: string) {
  const slug = contestSlug(shop.name);
  const orderForm = await import("~/routes/storefront/order-form");
  return callRoute(
    orderForm.action,
    formRequest(
      `/order-form/${encodeURIComponent(slug)}`,
      [
        ["intent", "next"],
        ["items[0].category", "A部門"],
        ["items[0].athleteId", String(shop.onSale.id)],
        ["items[0].formatId", String(formatId)],
      ],
      cookie,
    ),
    { contestSlug: slug },
  );
}

async function confirmCustomer(cookie: string, email: string) {
  const confirmation = await import("~/routes/checkout/order-confirmation");
  return callRoute(
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
}

function checkoutOf(contestId: number) {
  return db().select().from(checkouts).where(eq(checkouts.contestId, contestId)).get();
}

const mailsTo = (email: string) => smtp.received.filter((m) => m.to.includes(email)).length;

describe("back from the payment page", () => {
  it("changing the videos after the payment page reprices the one payment; the verified address is not asked again", async () => {
    const shop = seedContest();
    const { cookie, email } = await checkoutUntilVerified(
      shop,
      [{ athleteId: shop.onSale.id, category: "A部門", formatId: shop.vertical.id }],
      smtp.received,
    );
    const first = await openCheckoutPage("/payment", cookie);
    expect(first.status).toBe(200);
    expect(first.data).toMatchObject({ summary: { total: 3000 } });
    const intentId = checkoutOf(shop.contestId)?.paymentIntentId;
    expect(intentId).toBeTruthy();

    // 戻る leads to the confirmation, which shows the draft and the verified address.
    const back = await openCheckoutPage("/order-confirmation", cookie);
    expect(back.status).toBe(200);
    expect(back.data).toMatchObject({ verifiedEmail: email, customer: { email } });

    // The videos changed: the draft keeps the address and its verification.
    const changed = await postOrderForm(shop, shop.horizontal.id, cookie);
    expect(changed.location).toBe("/order-confirmation");
    const mailsBefore = mailsTo(email);
    const again = await confirmCustomer(cookie, email.toUpperCase());
    expect(again.location).toBe("/payment");
    expect(mailsTo(email)).toBe(mailsBefore);

    const second = await openCheckoutPage("/payment", cookie);
    expect(second.data).toMatchObject({ summary: { total: 4500 } });
    const checkout = checkoutOf(shop.contestId);
    // One intent, moved to the new total together with the lines the order will hold.
    expect(checkout?.paymentIntentId).toBe(intentId);
    expect(checkout?.amount).toBe(4500);
    expect(checkout?.pricedLines?.map((line) => line.price)).toEqual([4500]);
    expect((await paymentProvider().retrieveIntent(intentId ?? ""))?.amount).toBe(4500);

    // A pay button pressed on a page that still showed the old total charges nothing.
    const stale = await payByTestCard(cookie, 3000);
    expect(stale.status).toBe(409);
    expect(JSON.stringify(stale.data)).toContain(TOTAL_CHANGED_MESSAGE);
    expect(db().select().from(orders).where(eq(orders.customerEmail, email)).all()).toHaveLength(0);

    const paid = await payByTestCard(cookie, 4500);
    expect(paid.location).toBe("/payment-complete");
    const made = db().select().from(orders).where(eq(orders.customerEmail, email)).all();
    expect(made).toHaveLength(1);
    expect(made[0]?.totalAmount).toBe(4500);
  });

  it("a changed address is asked again, and the payment page waits for its code", async () => {
    const shop = seedContest();
    const { cookie } = await checkoutUntilVerified(
      shop,
      [{ athleteId: shop.onSale.id, category: "A部門", formatId: shop.vertical.id }],
      smtp.received,
    );
    const other = `other${Math.random().toString(36).slice(2, 8)}@example.jp`;
    const changed = await confirmCustomer(cookie, other);
    expect(changed.location).toBe("/email-verification");
    expect(mailsTo(other)).toBe(1);
    const payment = await openCheckoutPage("/payment", cookie);
    expect(payment.location).toBe("/email-verification");
    const back = await openCheckoutPage("/order-confirmation", cookie);
    expect(back.data).toMatchObject({ verifiedEmail: null, customer: { email: other } });
  });

  it("attack: a payment started for the verified address, the address then changed to someone else's, paid from the old tab, makes no order for that address", async () => {
    const shop = seedContest();
    const { cookie } = await checkoutUntilVerified(
      shop,
      [{ athleteId: shop.onSale.id, category: "A部門", formatId: shop.vertical.id }],
      smtp.received,
    );
    await openCheckoutPage("/payment", cookie);
    const started = checkoutOf(shop.contestId)?.paymentIntentId ?? "";
    const victim = `victim${Math.random().toString(36).slice(2, 8)}@example.jp`;
    expect((await confirmCustomer(cookie, victim)).location).toBe("/email-verification");

    // The old tab's card form pays the intent it was given: it has been ended with the address change.
    expect((await paymentProvider().retrieveIntent(started))?.status).toBe("canceled");
    expect((await testProvider.confirmCard(started, "4242424242424242")).ok).toBe(false);
    expect(db().select().from(orders).where(eq(orders.customerEmail, victim)).all()).toHaveLength(0);
    // Only the code went to the typed address, as for any address typed (its own caps apply).
    expect(mailsTo(victim)).toBe(1);

    // Once the new address is verified, a new payment starts for it.
    const code = /\b(\d{6})\b/.exec(
      smtp.received.filter((m) => m.to.includes(victim)).at(-1)?.text ?? "",
    )?.[1];
    const verification = await import("~/routes/checkout/email-verification");
    const verified = await callRoute(
      verification.action,
      formRequest("/email-verification", [["code", code ?? ""]], cookie),
    );
    expect(verified.location).toBe("/payment");
    await openCheckoutPage("/payment", cookie);
    const next = checkoutOf(shop.contestId)?.paymentIntentId;
    expect(next).toBeTruthy();
    expect(next).not.toBe(started);
    expect((await payByTestCard(cookie, 3000)).location).toBe("/payment-complete");
    expect(db().select().from(orders).where(eq(orders.customerEmail, victim)).all()).toHaveLength(1);
  });

  it("a payment still processing is not started a second time", async () => {
    const shop = seedContest();
    const { cookie } = await checkoutUntilVerified(
      shop,
      [{ athleteId: shop.onSale.id, category: "A部門", formatId: shop.vertical.id }],
      smtp.received,
    );
    await openCheckoutPage("/payment", cookie);
    const intentId = checkoutOf(shop.contestId)?.paymentIntentId ?? "";
    // Stripe reports a card payment as processing while the bank decides (the test provider never does).
    const provider = paymentProvider();
    const intent = await provider.retrieveIntent(intentId);
    if (!intent) throw new Error("no intent");
    const retrieve = vi
      .spyOn(provider, "retrieveIntent")
      .mockResolvedValue({ ...intent, status: "processing" });
    const create = vi.spyOn(provider, "createIntent");
    await postOrderForm(shop, shop.horizontal.id, cookie);
    const page = await openCheckoutPage("/payment", cookie);
    expect(page.status).toBe(400);
    expect(page.data).toMatchObject({ error: PAYMENT_PROCESSING_MESSAGE });
    expect(checkoutOf(shop.contestId)?.paymentIntentId).toBe(intentId);
    expect(create).not.toHaveBeenCalled();
    retrieve.mockRestore();
    create.mockRestore();
  });
});

/** The order form posted by a browser whose session is logged in as the user. */
async function loggedInCheckout(shop: Shop, userId: number) {
  const session = await getSession(new Request("http://shop.test/"));
  logIn(session, { id: userId });
  const cookie = (await commitSession(session)).split(";")[0] ?? "";
  const created = await postOrderForm(shop, shop.vertical.id, cookie);
  expect(created.location).toBe("/order-confirmation");
  return sessionOf(created) || cookie;
}

const uniqueAddress = (label: string) => `${label}${Math.random().toString(36).slice(2, 8)}@example.jp`;

describe("a logged-in customer's confirmed address", () => {
  it("a registered customer's own confirmed address goes to payment without a code", async () => {
    const shop = seedContest();
    const user = await createUser(uniqueAddress("member"), "Kodomo-2025-ok");
    const cookie = await loggedInCheckout(shop, user.id);
    const page = await openCheckoutPage("/order-confirmation", cookie);
    expect(page.data).toMatchObject({ verifiedEmail: user.email, customer: { email: user.email } });
    const saved = await confirmCustomer(cookie, user.email);
    expect(saved.location).toBe("/payment");
    expect(mailsTo(user.email)).toBe(0);
    const payment = await openCheckoutPage("/payment", cookie);
    expect(payment.status).toBe(200);
    expect(checkoutOf(shop.contestId)).toMatchObject({ status: "verified", customerEmail: user.email });
  });

  it("another address, an auto-login account's unconfirmed address and a guest naming a member's address all get the code", async () => {
    // The member orders for another address: that address gets its code.
    const member = await createUser(uniqueAddress("member"), "Kodomo-2025-ok");
    const other = uniqueAddress("grandma");
    const forOther = await loggedInCheckout(seedContest(), member.id);
    expect((await confirmCustomer(forOther, other)).location).toBe("/email-verification");
    expect(mailsTo(other)).toBe(1);
    expect(mailsTo(member.email)).toBe(0);

    // The checkout's auto-login made this account; its address is not confirmed yet.
    const autoMade = await createUser(uniqueAddress("auto"), "Kodomo-2025-ok", { addressUnconfirmed: true });
    const shop = seedContest();
    const auto = await loggedInCheckout(shop, autoMade.id);
    expect((await openCheckoutPage("/order-confirmation", auto)).data).toMatchObject({ verifiedEmail: null });
    expect((await confirmCustomer(auto, autoMade.email)).location).toBe("/email-verification");
    expect(mailsTo(autoMade.email)).toBe(1);
    expect((await openCheckoutPage("/payment", auto)).location).toBe("/email-verification");

    // A guest who types a member's address is a stranger to it: the code goes to the address.
    const guestShop = seedContest();
    const guest = sessionOf(await postOrderForm(guestShop, guestShop.vertical.id));
    expect((await confirmCustomer(guest, member.email)).location).toBe("/email-verification");
    expect(mailsTo(member.email)).toBe(1);
    expect((await openCheckoutPage("/payment", guest)).location).toBe("/email-verification");
  });
});

describe("the order form's choices", () => {
  it("categories with nothing on sale are not offered, and each athlete's choice carries its prices", async () => {
    const shop = seedContest();
    db()
      .insert(categories)
      .values([
        { contestId: shop.contestId, name: "C部門", color: "#10b981" },
        { contestId: shop.contestId, name: "D部門", color: "#f59e0b" },
      ])
      .run();
    db()
      .insert(athletes)
      .values({
        contestId: shop.contestId,
        athleteNumber: 9,
        name: "選手9",
        category: "C部門",
        videoStatus: "受注停止",
      })
      .run();
    const slug = contestSlug(shop.name);
    const orderForm = await import("~/routes/storefront/order-form");
    const page = await callRoute(
      orderForm.loader,
      new Request(`http://shop.test/order-form/${encodeURIComponent(slug)}`),
      { contestSlug: slug },
    );
    const { options } = page.data as { options: ReturnType<typeof orderFormOptions> };
    expect(options.categories).toEqual(["A部門", "B部門"]);
    expect(options.athletes.map((a) => a.number)).toEqual([1, 2, 4]);
    const onSale = options.athletes.find((a) => a.id === shop.onSale.id);
    if (!onSale) throw new Error("athlete 1 is on sale");
    // The list's prices are the prices the order is made at.
    expect(athletePrices(onSale, options.formats).map(({ format, price }) => [format.name, price])).toEqual([
      ["縦", 3000],
      ["横", 4500],
    ]);
    const unpriced = options.athletes.find((a) => a.id === shop.unpriced.id);
    if (!unpriced) throw new Error("athlete 2 is on sale");
    expect(athletePrices(unpriced, options.formats).map(({ price }) => price)).toEqual([3500, 3500]);
    for (const format of options.formats) {
      const priced = priceItems(shop.contestId, [
        { category: "A部門", athleteId: shop.onSale.id, formatId: format.id },
      ]);
      expect(priced.ok && priced.total).toBe(
        athletePrices(onSale, options.formats).find((p) => p.format.id === format.id)?.price,
      );
    }
  });
});
