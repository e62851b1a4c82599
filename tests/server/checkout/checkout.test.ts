import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { contestSlug } from "~/lib/rules/slug";
import { db } from "~/server/db/client.server";
import { checkouts, orders } from "~/server/db/schema";
import { checkoutUntilConfirmed } from "../../helpers/checkout-flow";
import { callRoute, sessionOf } from "../../helpers/route";
import { formRequest, seedContest } from "../../helpers/shop";
import { smtpServerForThisFile } from "../../helpers/smtp-per-file";

const smtp = smtpServerForThisFile();

const orderForm = () => import("~/routes/storefront/order-form");

async function postOrderForm(
  shop: ReturnType<typeof seedContest>,
  items: Record<string, string>[],
  cookie?: string,
  intent = "next",
) {
  const fields: [string, string][] = [["intent", intent]];
  items.forEach((item, i) =>
    Object.entries(item).forEach(([key, value]) => fields.push([`items[${i}].${key}`, value])),
  );
  const slug = contestSlug(shop.name);
  return callRoute(
    (await orderForm()).action,
    formRequest(`/order-form/${encodeURIComponent(slug)}`, fields, cookie),
    { contestSlug: slug },
  );
}

describe("order form (server side)", () => {
  it("prices from the athletes' prices and ignores a price the browser sends", async () => {
    const shop = seedContest();
    const result = await postOrderForm(shop, [
      {
        category: "A部門",
        athleteId: String(shop.onSale.id),
        formatId: String(shop.horizontal.id),
        price: "1",
      },
    ]);
    expect(result.status).toBe(302);
    expect(result.location).toBe("/order-confirmation");
    const confirmation = await import("~/routes/checkout/order-confirmation");
    const page = await callRoute(
      confirmation.loader,
      new Request("http://shop.test/order-confirmation", { headers: { Cookie: sessionOf(result) } }),
    );
    expect(page.data).toMatchObject({ total: 4500, lines: [{ price: 4500, athleteNumber: 1, style: "横" }] });
  });

  it("a body that names a later item alone (items[2] with no items[0]) is a draft of that one item, not a 500 at the next step", async () => {
    const shop = seedContest();
    const slug = contestSlug(shop.name);
    const result = await callRoute(
      (await orderForm()).action,
      formRequest(`/order-form/${encodeURIComponent(slug)}`, [
        ["intent", "next"],
        ["items[2].category", "A部門"],
        ["items[2].athleteId", String(shop.onSale.id)],
        ["items[2].formatId", String(shop.vertical.id)],
      ]),
      { contestSlug: slug },
    );
    expect(result.status).toBeLessThan(500);
    const cookie = sessionOf(result);
    const confirmation = await import("~/routes/checkout/order-confirmation");
    const page = await callRoute(
      confirmation.loader,
      new Request("http://shop.test/order-confirmation", { headers: { Cookie: cookie } }),
    );
    expect(page.status).toBeLessThan(500);
    const form = await callRoute(
      (await orderForm()).loader,
      new Request(`http://shop.test/order-form/${encodeURIComponent(slug)}`, { headers: { Cookie: cookie } }),
      { contestSlug: slug },
    );
    expect((form.data as { draft: unknown[] }).draft).toEqual([
      { category: "A部門", athleteId: shop.onSale.id, formatId: shop.vertical.id },
    ]);
  });

  it("金額を計算する saves the choices, an incomplete item too, and draws the form again", async () => {
    const shop = seedContest();
    const complete = {
      category: "A部門",
      athleteId: String(shop.onSale.id),
      formatId: String(shop.vertical.id),
    };
    const result = await postOrderForm(shop, [complete, { category: "A部門" }], undefined, "price");
    const slug = contestSlug(shop.name);
    expect(result.status).toBe(302);
    expect(result.location).toBe(`/order-form/${encodeURIComponent(slug)}`);
    const form = await callRoute(
      (await orderForm()).loader,
      new Request(`http://shop.test/order-form/${encodeURIComponent(slug)}`, {
        headers: { Cookie: sessionOf(result) },
      }),
      { contestSlug: slug },
    );
    expect((form.data as { draft: unknown[] }).draft).toEqual([
      { category: "A部門", athleteId: shop.onSale.id, formatId: shop.vertical.id },
      { category: "A部門", athleteId: null, formatId: null },
    ]);
  });

  it("uses the 3500 yen fallback for an athlete without a price", async () => {
    const shop = seedContest();
    const result = await postOrderForm(shop, [
      { category: "B部門", athleteId: String(shop.unpriced.id), formatId: String(shop.vertical.id) },
    ]);
    const cookie = sessionOf(result);
    const confirmation = await import("~/routes/checkout/order-confirmation");
    const page = await callRoute(
      confirmation.loader,
      new Request("http://shop.test/order-confirmation", { headers: { Cookie: cookie } }),
    );
    expect(page.data).toMatchObject({ total: 3500 });
  });

  it("refuses a 受注停止 athlete with a Japanese message and a 4xx", async () => {
    const shop = seedContest();
    const result = await postOrderForm(shop, [
      { category: "A部門", athleteId: String(shop.stopped.id), formatId: String(shop.vertical.id) },
    ]);
    expect(result.status).toBe(422);
    expect(JSON.stringify(result.data)).toContain("選択された選手は現在ご注文いただけません");
  });

  it("refuses an athlete of another contest", async () => {
    const shop = seedContest();
    const other = seedContest();
    const result = await postOrderForm(shop, [
      { category: "A部門", athleteId: String(other.onSale.id), formatId: String(shop.vertical.id) },
    ]);
    expect(result.status).toBe(422);
    expect(JSON.stringify(result.data)).toContain("選択された選手は現在ご注文いただけません");
  });

  it("refuses a format of another contest and a category that does not match", async () => {
    const shop = seedContest();
    const other = seedContest();
    const wrongFormat = await postOrderForm(shop, [
      { category: "A部門", athleteId: String(shop.onSale.id), formatId: String(other.vertical.id) },
    ]);
    expect(wrongFormat.status).toBe(422);
    const wrongCategory = await postOrderForm(shop, [
      { category: "B部門", athleteId: String(shop.onSale.id), formatId: String(shop.vertical.id) },
    ]);
    expect(wrongCategory.status).toBe(422);
    expect(JSON.stringify(wrongCategory.data)).toContain("選手と部門の組み合わせが正しくありません");
  });

  it.each([
    ["no items", []],
    ["an incomplete item", [{ category: "A部門" }]],
    ["garbage ids", [{ category: "A部門", athleteId: "1e9999", formatId: "-3" }]],
    ["a long string", [{ category: "x".repeat(10_000), athleteId: "abc", formatId: "" }]],
  ])("answers %s with a 400, never a 500", async (_label, items) => {
    const shop = seedContest();
    const result = await postOrderForm(shop, items as Record<string, string>[]);
    expect(result.status).toBe(400);
    const text = JSON.stringify(result.data);
    expect(
      text.includes("注文項目を選択してください") || text.includes("すべての項目を選択してください"),
    ).toBe(true);
  });

  it("answers a body too large for a form with 413", async () => {
    const shop = seedContest();
    const result = await postOrderForm(shop, [{ category: "x".repeat(100_000) }]);
    expect(result.status).toBe(413);
  });

  it("404s for a contest that is not on sale", async () => {
    const shop = seedContest();
    const { contests } = await import("~/server/db/schema");
    db()
      .update(contests)
      .set({ videoPublished: false, sitePublicStatus: "非公開" })
      .where(eq(contests.id, shop.contestId))
      .run();
    const result = await postOrderForm(shop, []);
    expect(result.status).toBe(404);
  });
});

describe("order confirmation (server side)", () => {
  it("the auto-login password follows registration's rule (8 lower-case letters are refused)", async () => {
    const shop = seedContest();
    const created = await postOrderForm(shop, [
      { category: "A部門", athleteId: String(shop.onSale.id), formatId: String(shop.vertical.id) },
    ]);
    const cookie = sessionOf(created);
    const confirmation = await import("~/routes/checkout/order-confirmation");
    const post = (password: string) =>
      callRoute(
        confirmation.action,
        formRequest(
          "/order-confirmation",
          [
            ["email", `weak${Math.random().toString(36).slice(2, 8)}@example.jp`],
            ["name", "テスト 太郎"],
            ["autoLogin", "on"],
            ["password", password],
            ["confirmPassword", password],
          ],
          cookie,
        ),
      );
    for (const [weak, message] of [
      ["abcdefgh", "英大文字・英小文字・数字のうち2種類以上を組み合わせてください"],
      ["12345678", "英大文字・英小文字・数字のうち2種類以上を組み合わせてください"],
      ["Ab1", "パスワードは8文字以上で入力してください"],
    ] as const) {
      const refused = await post(weak);
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.data)).toContain(message);
    }
    const checkout = db().select().from(checkouts).where(eq(checkouts.contestId, shop.contestId)).get();
    expect(checkout?.pendingPasswordHash ?? null).toBeNull();
    expect((await post("Kodomo2025")).location).toBe("/email-verification");
  });
});

describe("e-mail code and payment (server side)", () => {
  it("refuses a 7-digit or non-numeric code with a 400 and the spec's message", async () => {
    const shop = seedContest();
    const { cookie } = await checkoutUntilConfirmed(shop, [
      { athleteId: shop.onSale.id, category: "A部門", formatId: shop.vertical.id },
    ]);
    const verification = await import("~/routes/checkout/email-verification");
    for (const code of ["1234567", "12a456", ""]) {
      const result = await callRoute(
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
      expect(result.status).toBe(400);
      expect(result.data).toMatchObject({ kind: "error", message: "6桁の認証コードを入力してください" });
    }
  });

  it("mails the code only to the customer's address; five wrong codes need a new one", async () => {
    const shop = seedContest();
    const { cookie, email } = await checkoutUntilConfirmed(shop, [
      { athleteId: shop.onSale.id, category: "A部門", formatId: shop.vertical.id },
    ]);
    const mail = smtp.received.filter((m) => m.to.includes(email)).at(-1);
    const code = /\b(\d{6})\b/.exec(mail?.text ?? "")?.[1] ?? "";
    expect(code).toMatch(/^\d{6}$/);
    const verification = await import("~/routes/checkout/email-verification");
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++) {
      const result = await callRoute(
        verification.action,
        formRequest(
          "/email-verification",
          [
            ["intent", "verify"],
            ["code", wrong],
          ],
          cookie,
        ),
      );
      expect(result.status).toBe(400);
    }
    const locked = await callRoute(
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
    expect(JSON.stringify(locked.data)).toContain("新しいコードを取得してください");
  });

  it("refuses to pay an order whose total is 0 with 注文金額が無効です", async () => {
    const shop = seedContest();
    const { cookie, email } = await checkoutUntilConfirmed(shop, [
      { athleteId: shop.free.id, category: "B部門", formatId: shop.vertical.id },
    ]);
    const code =
      /\b(\d{6})\b/.exec(smtp.received.filter((m) => m.to.includes(email)).at(-1)?.text ?? "")?.[1] ?? "";
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
    const payment = await import("~/routes/checkout/payment");
    const page = await callRoute(
      payment.loader,
      new Request("http://shop.test/payment", { headers: { Cookie: cookie } }),
    );
    expect(page.status).toBe(400);
    expect(page.data).toMatchObject({ error: "注文金額が無効です" });
    const card = await callRoute(
      payment.action,
      formRequest(
        "/payment",
        [
          ["cardholderName", "T"],
          ["cardNumber", "4242424242424242"],
          ["expiry", "12/34"],
          ["cvc", "123"],
        ],
        cookie,
      ),
    );
    expect(card.status).toBe(400);
    expect(db().select().from(orders).where(eq(orders.customerEmail, email)).all()).toHaveLength(0);
  });

  it("without a checkout, /payment goes home", async () => {
    const payment = await import("~/routes/checkout/payment");
    const result = await callRoute(payment.loader, new Request("http://shop.test/payment"));
    expect(result.status).toBe(302);
    expect(result.location).toBe("/");
  });
});
