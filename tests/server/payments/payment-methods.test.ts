import fs from "node:fs";
import { afterAll, describe, expect, it, vi } from "vitest";
import { parseEnv } from "~/server/core/env.server";
import { PAYMENT_METHOD_NAMES, PAYMENT_METHODS, type PaymentMethod } from "~/lib/rules/payment-terms";
import { callRoute } from "../../helpers/route";
import { smtpServerForThisFile } from "../../helpers/smtp-per-file";

/*
 * PAYMENT_METHODS decides what /payment offers, and every legal text follows it: for each setting
 * the shop is started afresh (the configuration is read once per process, so the modules are
 * loaded again) and each page's texts must name exactly the enabled methods.
 */

const smtp = smtpServerForThisFile();

const SETTINGS = ([["card"], ["konbini"], ["card", "konbini"]] as PaymentMethod[][]).map((methods) => ({
  setting: methods.join(","),
  methods,
}));

/** The shop's modules as a process started with this setting would load them. */
async function startedWith(methods: PaymentMethod[]) {
  process.env.PAYMENT_METHODS = methods.join(",");
  vi.resetModules();
  return {
    shop: await import("../../helpers/shop"),
    flow: await import("../../helpers/checkout-flow"),
  };
}

afterAll(() => {
  delete process.env.PAYMENT_METHODS;
});

const names = (methods: readonly PaymentMethod[]) => methods.map((method) => PAYMENT_METHOD_NAMES[method]);

/** A text names every enabled method and none of the others. */
function expectNamesExactly(text: string, methods: readonly PaymentMethod[], where: string) {
  for (const method of PAYMENT_METHODS) {
    const named = text.includes(PAYMENT_METHOD_NAMES[method]);
    expect(named, `${where} ${methods.includes(method) ? "misses" : "names"} ${method}`).toBe(
      methods.includes(method),
    );
  }
}

describe("PAYMENT_METHODS (the setting)", () => {
  const base = { DATABASE_PATH: "./data/test.db", PAYMENT_PROVIDER: "test" };
  it("is card and konbini when unset or blank, in the shop's order whatever the list's", () => {
    expect(parseEnv(base).PAYMENT_METHODS).toEqual(["card", "konbini"]);
    expect(parseEnv({ ...base, PAYMENT_METHODS: " " }).PAYMENT_METHODS).toEqual(["card", "konbini"]);
    expect(parseEnv({ ...base, PAYMENT_METHODS: " konbini , card" }).PAYMENT_METHODS).toEqual([
      "card",
      "konbini",
    ]);
    expect(parseEnv({ ...base, PAYMENT_METHODS: "konbini" }).PAYMENT_METHODS).toEqual(["konbini"]);
  });

  it("refuses an unknown method or an empty list, in Japanese, naming the variable", () => {
    for (const value of ["paypal", "card,paypal", ",", "card;konbini"])
      expect(() => parseEnv({ ...base, PAYMENT_METHODS: value })).toThrowError(
        /PAYMENT_METHODS: card と konbini のどちらか、または両方をカンマ区切りで指定してください/,
      );
  });
});

describe.each(SETTINGS)("legal texts with PAYMENT_METHODS=$setting", ({ methods }) => {
  it("the final-confirmation box, 特定商取引法に基づく表記, the terms, the privacy policy and the pages about ordering name exactly the enabled methods", async () => {
    const { shop, flow } = await startedWith(methods);
    const pages = {
      "/legal-notice": await import("~/routes/storefront/legal-notice"),
      "/terms": await import("~/routes/storefront/terms"),
      "/privacy": await import("~/routes/storefront/privacy"),
      "/about": await import("~/routes/storefront/about"),
      "/contact": await import("~/routes/storefront/contact"),
    };
    for (const [path, page] of Object.entries(pages)) {
      const answer = await callRoute(page.loader, new Request(`http://shop.test${path}`));
      expect(answer.status).toBe(200);
      expectNamesExactly(JSON.stringify(answer.data), methods, path);
    }

    const cookie = await flow.newCheckout(shop.seedContest());
    const confirmation = await import("~/routes/checkout/order-confirmation");
    const box = await callRoute(
      confirmation.loader,
      new Request("http://shop.test/order-confirmation", { headers: { Cookie: cookie } }),
    );
    const { paymentTerms } = box.data as { paymentTerms: import("~/lib/rules/payment-terms").PaymentTerms };
    // Each fact that differs by method has one line per enabled method, each naming its method.
    for (const fact of ["methodDetails", "paymentTiming", "delivery", "refundWays", "contract"] as const) {
      expect(paymentTerms[fact], fact).toHaveLength(methods.length);
      paymentTerms[fact].forEach((line, index) => expect(line).toContain(names(methods)[index]));
    }
    expectNamesExactly(JSON.stringify(paymentTerms), methods, "the final-confirmation box");
    expect(paymentTerms.unpaid !== null, "the unpaid konbini order's end").toBe(methods.includes("konbini"));
  });
});

it("no page writes a payment method itself: each takes the names from the one source", () => {
  for (const file of [
    "app/routes/storefront/legal-notice.tsx",
    "app/routes/storefront/terms.tsx",
    "app/routes/storefront/privacy.tsx",
    "app/routes/storefront/about.tsx",
    "app/routes/storefront/contact.tsx",
    "app/routes/checkout/order-confirmation.tsx",
    "app/components/PaymentTermsText.tsx",
  ]) {
    const source = fs.readFileSync(file, "utf8");
    for (const name of Object.values(PAYMENT_METHOD_NAMES))
      expect(source.includes(name.slice(0, 4)), `${file} writes ${name} itself`).toBe(false);
  }
});

describe.each(SETTINGS)("/payment with PAYMENT_METHODS=$setting (テストモード)", ({ methods }) => {
  it("offers only the enabled methods; a post choosing another is a 400 in Japanese and makes no order", async () => {
    const { shop, flow } = await startedWith(methods);
    const contest = shop.seedContest();
    const { cookie } = await flow.checkoutUntilVerified(
      contest,
      [{ athleteId: contest.onSale.id, category: "A部門", formatId: contest.vertical.id }],
      smtp.received,
    );
    const payment = await import("~/routes/checkout/payment");
    const page = await callRoute(
      payment.loader,
      new Request("http://shop.test/payment", { headers: { Cookie: cookie } }),
    );
    expect(page.status).toBe(200);
    const { terms } = page.data as { terms: { methods: PaymentMethod[] } };
    expect(terms.methods).toEqual(methods);

    const disabled = PAYMENT_METHODS.filter((method) => !methods.includes(method));
    const { db } = await import("~/server/db/client.server");
    const { orders } = await import("~/server/db/schema");
    const before = db().select().from(orders).all().length;
    for (const method of disabled) {
      const fields: [string, string][] =
        method === "konbini"
          ? [["method", "konbini"]]
          : [
              ["cardholderName", "TARO YAMADA"],
              ["cardNumber", "4242424242424242"],
              ["expiry", "12/40"],
              ["cvc", "123"],
            ];
      const posted = await callRoute(payment.action, shop.formRequest("/payment", fields, cookie));
      expect(posted.status).toBe(400);
      expect(JSON.stringify(posted.data)).toContain(`${PAYMENT_METHOD_NAMES[method]}はご利用いただけません`);
    }
    expect(db().select().from(orders).all()).toHaveLength(before);
  });
});
