import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import { expect, test } from "@playwright/test";
import { authenticator } from "otplib";
import { expand, parseApiDoc, shapeDifferences, valueAt, type DocExample } from "../../scripts/api-doc/parse";
import { issueApiToken } from "../support/api-tokens";
import { withDb } from "../support/db";
import { mailsTo, uniqueEmail } from "../support/helpers";
import { createUser, loginAsAdmin } from "../support/users";
import { slugKey } from "../../app/lib/rules/slug";

/**
 * Every example of docs/api.md, run in the document's order against the production build: the
 * status and the shape of each answer must be the documented ones, so the document cannot
 * drift from the shop. Plain HTTP, so once (the JavaScript project).
 */

const root = path.resolve(import.meta.dirname, "../..");

test("@js-only docs/api.md: every example answers as documented", async ({ page, context, baseURL }) => {
  test.setTimeout(180_000);
  await loginAsAdmin(context, baseURL!, uniqueEmail("api-doc-admin"));
  // "Admin login" logs in, sets up an authenticator and logs out as an admin of its own (the
  // tokens' admin is never locked or logged out); "Users" deletes that admin at the end.
  const loginAdmin = await createUser({ email: uniqueEmail("api-doc-login"), isAdmin: true });
  const variables: Record<string, string> = {
    SHOP: baseURL!,
    TOKEN: await issueApiToken(page, { name: "docs/api.md の例（読み書き）", scope: "write" }),
    READ_TOKEN: await issueApiToken(page, { name: "docs/api.md の例（読み取り）", scope: "read" }),
    ADMIN_EMAIL: loginAdmin.email,
    ADMIN_PASSWORD: loginAdmin.password,
    ...paidOrdersForTheExamples(),
    ...athleteContestForTheExamples(),
    ...(await customersForTheExamples()),
  };
  const jars = new Map<string, Map<string, string>>();

  for (const call of parseApiDoc()) {
    for (const example of call.examples.filter((each) => each.run)) {
      const where = `docs/api.md:${example.line} (${call.method} ${call.path})`;
      const response = await send(example, variables, jars);
      const text = await response.text();
      expect(response.status, `${where}: ${text.slice(0, 300)}`).toBe(example.status);
      let answer: unknown = null;
      if (example.answer !== null) {
        answer = JSON.parse(text);
        expect(shapeDifferences(example.answer, answer), where).toEqual([]);
      }
      for (const directive of example.directives) {
        if (directive.kind === "set-answer") {
          const value = valueAt(answer, directive.path);
          expect(value, `${where}: ${directive.path}`).not.toBeUndefined();
          variables[directive.name] = String(value);
        } else if (directive.kind === "set-totp") {
          variables[directive.name] = authenticator.generate(expand(directive.secret, variables));
        } else {
          const email = expand(directive.email, variables);
          await expect.poll(() => mailsTo(email).length, { timeout: 15_000 }).toBeGreaterThan(0);
          const code = /\b(\d{6})\b/.exec(mailsTo(email).at(-1)?.text ?? "")?.[1];
          expect(code, `${where}: no code mailed to ${email}`).toBeDefined();
          variables[directive.name] = code!;
        }
      }
    }
  }
});

/**
 * "Orders" needs paid orders, and no call documented before it buys one: two paid orders (two
 * lines, then one) of an unpublished contest of their own, so no other spec's list or count sees them.
 */
function paidOrdersForTheExamples(): { ORDER_NUMBER: string; ORDER_NUMBER_2: string } {
  return withDb((db) => {
    const suffix = crypto.randomBytes(6).toString("hex");
    const { id: contestId } = db
      .prepare("insert into contests (name, slug_key) values (?, ?) returning id")
      .get(`APIの例の大会 ${suffix}`, `apidoc${suffix}`) as { id: number };
    const order = (lines: [category: string, athleteNumber: number, style: string][]) => {
      const number = `6${String(crypto.randomInt(10_000_000)).padStart(7, "0")}`;
      const { id } = db
        .prepare(
          `insert into orders (status_token, order_number, checkout_id, payment_intent_id, contest_id,
             contest_name, customer_email, customer_name, total_amount, line_count, paid_at)
           values (lower(hex(randomblob(16))), ?, ?, ?, ?, ?, ?, '例 花子', ?, ?, ?) returning id`,
        )
        .get(
          number,
          `apidoc-${number}`,
          `pi_apidoc_${number}`,
          contestId,
          `APIの例の大会 ${suffix}`,
          uniqueEmail("api-doc-order"),
          3000 * lines.length,
          lines.length,
          Date.now(),
        ) as { id: number };
      lines.forEach(([category, athleteNumber, style], i) =>
        db
          .prepare(
            `insert into order_lines (order_id, line_number, contest_name, category, athlete_number,
               athlete_name, style, orientation, price) values (?, ?, ?, ?, ?, ?, ?, ?, 3000)`,
          )
          .run(
            id,
            `${number}-${i + 1}`,
            `APIの例の大会 ${suffix}`,
            category,
            athleteNumber,
            `選手${athleteNumber}`,
            style,
            style === "縦" ? "vertical" : "horizontal",
          ),
      );
      return number;
    };
    return {
      ORDER_NUMBER: order([
        ["キッズ部門", 12, "縦"],
        ["キッズ部門", 12, "横"],
      ]),
      ORDER_NUMBER_2: order([["一般部門", 3, "縦"]]),
    };
  });
}

/**
 * "Athletes" adds, edits, deletes and purges athletes of a contest of their own (made here, as
 * no call documented before it makes one), unpublished so no other spec sees it, with the
 * category its first example chooses.
 */
function athleteContestForTheExamples(): { ATHLETE_CONTEST_ID: string } {
  return withDb((db) => {
    const suffix = crypto.randomBytes(6).toString("hex");
    const { id } = db
      .prepare("insert into contests (name, slug_key) values (?, ?) returning id")
      .get(`APIの例の選手大会 ${suffix}`, `apidocathletes${suffix}`) as { id: number };
    db.prepare("insert into categories (contest_id, name, color) values (?, 'キッズ部門', '#3b82f6')").run(
      id,
    );
    return { ATHLETE_CONTEST_ID: String(id) };
  });
}

/**
 * "Accounts" and "Checkout" need a customer with a paid order of their own, fresh addresses to
 * register and to order with, and a contest on sale of their own (an athlete 7 of キッズ部門 at
 * 3,000 yen 縦 and 4,500 yen 横), so no other spec's contest or account is touched.
 */
async function customersForTheExamples() {
  const customer = await createUser({ email: uniqueEmail("api-doc-customer"), name: "例 花子" });
  const suffix = crypto.randomBytes(6).toString("hex");
  const saleContest = `APIの例で注文する大会 ${suffix}`;
  withDb((db) => {
    const { id: contestId } = db
      .prepare(
        "insert into contests (name, slug_key, video_published, site_public_status) values (?, ?, 1, '公開') returning id",
      )
      .get(saleContest, slugKey(saleContest)) as { id: number };
    db.prepare("insert into categories (contest_id, name, color) values (?, 'キッズ部門', '#ef4444')").run(
      contestId,
    );
    db.prepare(
      "insert into video_formats (contest_id, name, display_order) values (?, '縦', 0), (?, '横', 1)",
    ).run(contestId, contestId);
    db.prepare(
      `insert into athletes (contest_id, athlete_number, name, category, video_status, vertical_video_price,
         horizontal_video_price) values (?, 7, '選手7', 'キッズ部門', '販売中', 3000, 4500)`,
    ).run(contestId);
    // The customer's own paid order, for 購入履歴.
    const number = `5${String(crypto.randomInt(10_000_000)).padStart(7, "0")}`;
    const { id: orderId } = db
      .prepare(
        `insert into orders (status_token, order_number, checkout_id, payment_intent_id, contest_id,
           contest_name, customer_email, customer_name, total_amount, line_count, paid_at)
         values (lower(hex(randomblob(16))), ?, ?, ?, ?, ?, ?, '例 花子', 3000, 1, ?) returning id`,
      )
      .get(
        number,
        `apidoc-${number}`,
        `pi_apidoc_${number}`,
        contestId,
        saleContest,
        customer.email,
        Date.now(),
      ) as {
      id: number;
    };
    db.prepare(
      `insert into order_lines (order_id, line_number, contest_name, category, athlete_number, athlete_name,
         style, orientation, price) values (?, ?, ?, 'キッズ部門', 7, '選手7', '縦', 'vertical', 3000)`,
    ).run(orderId, `${number}-1`, saleContest);
  });
  return {
    CUSTOMER_EMAIL: customer.email,
    CUSTOMER_PASSWORD: customer.password,
    NEW_EMAIL: uniqueEmail("api-doc-register"),
    NEW_EMAIL_2: uniqueEmail("api-doc-register-2"),
    GUEST_EMAIL: uniqueEmail("api-doc-guest"),
    SALE_CONTEST: saleContest,
  };
}

async function send(
  example: DocExample,
  variables: Record<string, string>,
  jars: Map<string, Map<string, string>>,
): Promise<Response> {
  const { request } = example;
  const headers = new Headers(
    request.headers.map(([name, value]): [string, string] => [name, expand(value, variables)]),
  );
  let body: BodyInit | undefined;
  if (request.body) {
    body = request.body.expand ? expand(request.body.text, variables) : request.body.text;
    if (request.body.json) headers.set("Content-Type", "application/json");
    else if (!headers.has("Content-Type")) headers.set("Content-Type", "application/x-www-form-urlencoded");
  } else if (request.form.length) {
    const form = new FormData();
    for (const [name, raw] of request.form) {
      const value = expand(raw, variables);
      if (value.startsWith("@")) {
        const [file = "", type] = value.slice(1).split(";type=");
        form.append(name, new Blob([fs.readFileSync(path.join(root, file))], { type }), path.basename(file));
      } else form.append(name, value);
    }
    body = form;
  }
  const jar = request.cookieJar ? (jars.get(request.cookieJar) ?? new Map<string, string>()) : null;
  if (jar && request.cookieJar) jars.set(request.cookieJar, jar);
  if (jar?.size) headers.set("Cookie", [...jar].map(([name, value]) => `${name}=${value}`).join("; "));
  const response = await fetch(expand(request.url, variables), {
    method: request.method,
    headers,
    body,
    redirect: "manual",
  });
  for (const cookie of response.headers.getSetCookie()) {
    const [pair = "", ...attributes] = cookie.split(";");
    const [name = "", value = ""] = pair.split("=");
    const gone = value === "" || attributes.some((attribute) => /expires=Thu, 01 Jan 1970/i.test(attribute));
    if (gone) jar?.delete(name.trim());
    else jar?.set(name.trim(), value);
  }
  return response;
}
