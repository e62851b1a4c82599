import { describe, expect, it, vi } from "vitest";
import * as sendRoute from "~/routes/api/checkout/send-verification-code";
import * as resendRoute from "~/routes/api/checkout/resend-verification-code";
import * as verifyRoute from "~/routes/api/checkout/verify-email-code";
import * as verificationScreen from "~/routes/checkout/email-verification";
import * as ordersRoute from "~/routes/api/orders/list";
import * as confirmationRoute from "~/routes/api/checkout/send-payment-confirmation";
import * as paymentIntentRoute from "~/routes/api/create-payment-intent";
import { eq } from "drizzle-orm";
import { db } from "~/server/db/client.server";
import { checkouts, mailOutbox, orders } from "~/server/db/schema";
import { checkoutUntilVerified } from "../../helpers/checkout-flow";
import { apiCall } from "../../helpers/api";
import { checkoutUntilConfirmed } from "../../helpers/checkout-flow";
import { callRoute, sessionOf } from "../../helpers/route";
import { formRequest, seedContest } from "../../helpers/shop";
import { smtpServerForThisFile } from "../../helpers/smtp-per-file";

const smtp = smtpServerForThisFile();

const mailsTo = (address: string) => smtp.received.filter((mail) => mail.to.includes(address));
const codeOf = (address: string) => /\b(\d{6})\b/.exec(mailsTo(address).at(-1)?.text ?? "")?.[1] ?? "";
const wrongCode = (right: string) => (right === "000000" ? "111111" : "000000");
const post = (route: Parameters<typeof apiCall>[0], path: string, json: unknown, cookie?: string) =>
  apiCall(route, "POST", path, { json, cookie });

/** A guest's checkout at the code step (the order form and the confirmation done as a browser does them). */
async function confirmedCheckout() {
  const shop = seedContest();
  const line = { athleteId: shop.onSale.id, category: "A部門", formatId: shop.vertical.id };
  const { cookie, email } = await checkoutUntilConfirmed(shop, [line]);
  return { cookie, email };
}

describe("the checkout's e-mail code", () => {
  it("send answers that the code just mailed is still good; verify takes it; the checkout goes on to payment", async () => {
    const { cookie, email } = await confirmedCheckout();
    const sent = await post(sendRoute, "/api/send-verification-code", { email }, cookie);
    expect(sent).toMatchObject({ status: 202, data: { verified: false } });
    const code = codeOf(email);
    const wrong = await post(verifyRoute, "/api/verify-email-code", { email, code: wrongCode(code) }, cookie);
    expect(wrong.status).toBe(400);
    expect(wrong.data).toMatchObject({ remainingAttempts: expect.any(Number) });
    // The screen's refusal, word for word.
    const screen = await callRoute(
      verificationScreen.action,
      formRequest(
        "/email-verification",
        [
          ["intent", "verify"],
          ["code", wrongCode(code)],
        ],
        cookie,
      ),
    );
    expect((screen.data as { message: string }).message.replace(/\d+回/, "N回")).toBe(
      (wrong.data as { message: string }).message.replace(/\d+回/, "N回"),
    );
    const done = await post(verifyRoute, "/api/verify-email-code", { email, code: code.split("") }, cookie);
    expect(done).toMatchObject({ status: 200, data: { verified: true, redirectTo: "/payment" } });
    const again = await post(sendRoute, "/api/send-verification-code", { email }, sessionOf(done) || cookie);
    expect(again).toMatchObject({ status: 200, data: { verified: true } });
  });

  it("resend is limited to once a minute, as on the screen", async () => {
    const { cookie, email } = await confirmedCheckout();
    const resent = await post(resendRoute, "/api/resend-verification-code", { email }, cookie);
    expect(resent.status).toBe(429);
    expect(resent.headers.get("Retry-After")).toBeTruthy();
    const screen = await callRoute(
      verificationScreen.action,
      formRequest("/email-verification", [["intent", "resend"]], cookie),
    );
    expect(screen.status).toBe(429);
  });

  it("attack: a code to another address than the checkout's is refused (409) and nothing is mailed to it", async () => {
    const { cookie } = await confirmedCheckout();
    const stranger = `stranger-${Math.random().toString(36).slice(2)}@example.jp`;
    for (const [route, path] of [
      [sendRoute, "/api/send-verification-code"],
      [resendRoute, "/api/resend-verification-code"],
    ] as const) {
      const answer = await post(route, path, { email: stranger }, cookie);
      expect(answer.status).toBe(409);
    }
    const verify = await post(
      verifyRoute,
      "/api/verify-email-code",
      { email: stranger, code: "123456" },
      cookie,
    );
    expect(verify.status).toBe(409);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(mailsTo(stranger)).toEqual([]);
  });

  it("without a checkout every call is 409; bad input 422; malformed JSON 400; GET 405", async () => {
    expect((await post(sendRoute, "/api/send-verification-code", { email: "a@example.jp" })).status).toBe(
      409,
    );
    expect((await post(resendRoute, "/api/resend-verification-code", { email: "a@example.jp" })).status).toBe(
      409,
    );
    const bad = await post(verifyRoute, "/api/verify-email-code", { email: "a@example.jp", code: "12" });
    expect(bad).toMatchObject({
      status: 422,
      data: { fields: { code: ["6桁の認証コードを入力してください"] } },
    });
    expect((await post(sendRoute, "/api/send-verification-code", { email: "nope" })).status).toBe(422);
    const request = new Request("http://shop.test/api/send-verification-code", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "[",
    });
    expect((await callRoute(sendRoute.action as never, request)).status).toBe(400);
    expect((await apiCall(verifyRoute, "GET", "/api/verify-email-code")).status).toBe(405);
  });

  it("a code has 5 tries through the API as on the screen: the right one is refused after them", async () => {
    const { cookie, email } = await confirmedCheckout();
    const code = codeOf(email);
    for (let i = 0; i < 5; i++)
      expect(
        (await post(verifyRoute, "/api/verify-email-code", { email, code: wrongCode(code) }, cookie)).status,
      ).toBe(400);
    const right = await post(verifyRoute, "/api/verify-email-code", { email, code }, cookie);
    expect(right.status).toBe(400);
    expect(right.data).toMatchObject({ remainingAttempts: 0 });
  });
});

type Shop = ReturnType<typeof seedContest>;
const orderBody = (shop: Shop, email: string, items?: unknown[]) => ({
  orderData: {
    contestName: shop.name,
    orderItems: items ?? [{ category: "A部門", athleteNumber: 1, videoStyle: "横", price: 1 }],
  },
  customerInfo: { customerName: "API 花子", customerEmail: email },
});
const freshEmail = () => `api-order-${Math.random().toString(36).slice(2, 10)}@example.jp`;

describe("POST /api/video/orders", () => {
  it("attack: a price sent by the client is never charged; the draft is priced by the server and the code mailed", async () => {
    const shop = seedContest();
    const email = freshEmail();
    const answer = await post(ordersRoute, "/api/video/orders", orderBody(shop, email));
    expect(answer).toMatchObject({
      status: 200,
      data: {
        orderData: {
          contestName: shop.name,
          orderItems: [
            {
              category: "A部門",
              athleteNumber: 1,
              videoStyle: shop.horizontal.name,
              price: 4500,
              listPrice: 4500,
              discounts: [],
            },
          ],
          listTotal: 4500,
          discounts: [],
          coupon: null,
          totalAmount: 4500,
        },
        customerInfo: { customerEmail: email },
        emailVerified: false,
        redirectTo: "/email-verification",
      },
    });
    const cookie = sessionOf(answer);
    const code = codeOf(email);
    expect(code).toMatch(/^\d{6}$/);
    const verified = await post(verifyRoute, "/api/verify-email-code", { email, code }, cookie);
    expect(verified.status).toBe(200);
    // The payment is the server's total too, whatever amount is sent.
    const intent = await post(paymentIntentRoute, "/api/create-payment-intent", { amount: 1 }, cookie);
    expect(intent).toMatchObject({ status: 200, data: { amount: 4500 } });
  });

  it("updates the same draft when called again", async () => {
    const shop = seedContest();
    const email = freshEmail();
    const first = await post(ordersRoute, "/api/video/orders", orderBody(shop, email));
    const cookie = sessionOf(first);
    const second = await post(
      ordersRoute,
      "/api/video/orders",
      orderBody(shop, email, [
        { category: "A部門", athleteNumber: 1, videoStyle: "vertical" },
        { category: "A部門", athleteNumber: 1, videoStyle: "横" },
      ]),
      cookie,
    );
    expect(second.status).toBe(200);
    expect((second.data as { orderData: { totalAmount: number } }).orderData.totalAmount).toBe(7500);
    const rows = db().select().from(checkouts).where(eq(checkouts.contestId, shop.contestId)).all();
    expect(rows).toHaveLength(1);
  });

  it("refuses with the order form's and the confirmation's messages under the call's field names", async () => {
    const shop = seedContest();
    const none = await post(ordersRoute, "/api/video/orders", orderBody(shop, freshEmail(), []));
    expect(none).toMatchObject({
      status: 422,
      data: { fields: { "orderData.orderItems": ["注文項目を選択してください"] } },
    });
    const unknownAthlete = await post(
      ordersRoute,
      "/api/video/orders",
      orderBody(shop, freshEmail(), [{ category: "A部門", athleteNumber: 999, videoStyle: "縦" }]),
    );
    expect(unknownAthlete).toMatchObject({
      status: 422,
      data: { fields: { "orderData.orderItems.0.athleteNumber": ["すべての項目を選択してください"] } },
    });
    const stopped = await post(
      ordersRoute,
      "/api/video/orders",
      orderBody(shop, freshEmail(), [{ category: "A部門", athleteNumber: 3, videoStyle: "縦" }]),
    );
    expect(stopped.status).toBe(422);
    const badCustomer = await post(ordersRoute, "/api/video/orders", {
      ...orderBody(shop, "nope"),
      customerInfo: { customerEmail: "nope", customerName: "" },
    });
    expect(badCustomer).toMatchObject({
      status: 422,
      data: {
        fields: {
          "customerInfo.customerEmail": ["メールアドレスの形式が正しくありません"],
          "customerInfo.customerName": ["お名前を入力してください"],
        },
      },
    });
    const unknownContest = await post(ordersRoute, "/api/video/orders", {
      ...orderBody(shop, freshEmail()),
      orderData: { contestName: "ない大会", orderItems: [] },
    });
    expect(unknownContest.status).toBe(404);
    const typed = await post(ordersRoute, "/api/video/orders", { orderData: 5, customerInfo: [] });
    expect(typed.status).toBe(422);
    const request = new Request("http://shop.test/api/video/orders", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{",
    });
    expect((await callRoute(ordersRoute.action as never, request)).status).toBe(400);
  });

  it("the admin's GET at the same address still needs an admin", async () => {
    expect((await apiCall(ordersRoute, "GET", "/api/video/orders")).status).toBe(401);
    expect((await apiCall(ordersRoute, "DELETE", "/api/video/orders")).status).toBe(405);
  });
});

describe("POST /api/send-payment-confirmation", () => {
  async function paidOrder() {
    const shop = seedContest();
    const { cookie, email } = await checkoutUntilVerified(
      shop,
      [{ athleteId: shop.onSale.id, category: "A部門", formatId: shop.vertical.id }],
      smtp.received,
    );
    const paymentPage = await import("~/routes/checkout/payment");
    await callRoute(
      paymentPage.loader,
      new Request("http://shop.test/payment", { headers: { Cookie: cookie } }),
    );
    const paid = await callRoute(
      paymentPage.action,
      formRequest(
        "/payment",
        [
          ["cardholderName", "TARO"],
          ["cardNumber", "4242424242424242"],
          ["expiry", "12/39"],
          ["cvc", "123"],
          ["shownTotal", "3000"],
        ],
        cookie,
      ),
    );
    expect(paid.location).toBe("/payment-complete");
    const order = db().select().from(orders).where(eq(orders.customerEmail, email)).get()!;
    return { cookie: sessionOf(paid) || cookie, email, order };
  }

  it("attack: another recipient (`to`) is never mailed; the order's own address gets its one confirmation", async () => {
    const { cookie, email, order } = await paidOrder();
    const attacker = `attacker-${Math.random().toString(36).slice(2)}@example.jp`;
    // The payment sends the confirmation itself; once it has gone, the call sends nothing more.
    await vi.waitFor(() =>
      expect(
        db()
          .select()
          .from(mailOutbox)
          .where(eq(mailOutbox.dedupeKey, `order-confirmation:${order.id}`))
          .get()?.status,
      ).toBe("sent"),
    );
    const before = smtp.received.filter((mail) => mail.to.includes(email)).length;
    const first = await post(
      confirmationRoute,
      "/api/send-payment-confirmation",
      { to: attacker, customerName: "x", orderNumber: order.orderNumber, totalAmount: 1 },
      cookie,
    );
    expect(first).toMatchObject({
      status: 200,
      data: { orderNumber: order.orderNumber, customerEmailSent: true },
    });
    const again = await post(
      confirmationRoute,
      "/api/send-payment-confirmation",
      { to: attacker, orderNumber: order.orderNumber },
      cookie,
    );
    expect(again.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(mailsTo(attacker)).toEqual([]);
    // Idempotent: the outbox holds one confirmation for the order, and the calls mailed nothing more.
    const rows = db()
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.dedupeKey, `order-confirmation:${order.id}`))
      .all();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.to).toBe(email);
    expect(smtp.received.filter((mail) => mail.to.includes(email)).length).toBe(before);
  });

  it("a confirmation still waiting in the outbox is sent by the call, once however often it is asked", async () => {
    const { cookie, email, order } = await paidOrder();
    const key = `order-confirmation:${order.id}`;
    await vi.waitFor(() =>
      expect(db().select().from(mailOutbox).where(eq(mailOutbox.dedupeKey, key)).get()?.status).toBe("sent"),
    );
    // As if the mail server had refused it: back in the outbox, due now.
    db()
      .update(mailOutbox)
      .set({ status: "pending", nextAttemptAt: new Date(0), sentAt: null })
      .where(eq(mailOutbox.dedupeKey, key))
      .run();
    const before = smtp.received.filter((mail) => mail.to.includes(email)).length;
    const calls = await Promise.all(
      [1, 2, 3].map(() =>
        post(confirmationRoute, "/api/send-payment-confirmation", { orderNumber: order.orderNumber }, cookie),
      ),
    );
    expect(calls.map((call) => call.status)).toEqual([200, 200, 200]);
    await vi.waitFor(() =>
      expect(smtp.received.filter((mail) => mail.to.includes(email)).length).toBe(before + 1),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(smtp.received.filter((mail) => mail.to.includes(email)).length).toBe(before + 1);
  });

  it("attack: an order this session did not make is 404, and nothing is mailed", async () => {
    const { order } = await paidOrder();
    const stranger = await confirmedCheckout();
    const answer = await post(
      confirmationRoute,
      "/api/send-payment-confirmation",
      { to: "x@example.jp", orderNumber: order.orderNumber },
      stranger.cookie,
    );
    expect(answer.status).toBe(404);
    expect(
      (await post(confirmationRoute, "/api/send-payment-confirmation", { orderNumber: order.orderNumber }))
        .status,
    ).toBe(404);
    const bad = await post(confirmationRoute, "/api/send-payment-confirmation", { orderNumber: "12" });
    expect(bad).toMatchObject({
      status: 422,
      data: { fields: { orderNumber: ["注文番号は8桁の数字で入力してください"] } },
    });
  });
});
