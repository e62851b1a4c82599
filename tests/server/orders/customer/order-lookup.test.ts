import { describe, expect, it, vi } from "vitest";
import { db } from "~/server/db/client.server";
import { orders } from "~/server/db/schema";
import { ORDER_LOOKUP_MESSAGES } from "~/server/orders/customer/order-lookup.server";
import { callRoute, type RouteResult } from "../../../helpers/route";
import { formRequest } from "../../../helpers/shop";
import { smtpServerForThisFile } from "../../../helpers/smtp-per-file";

const smtp = smtpServerForThisFile();

let ipCounter = 0;
/** A fresh client address per test, so one test's per-origin count does not reach the next. */
function freshIp() {
  ipCounter++;
  return `198.51.100.${ipCounter}`;
}

let sequence = 0;
function insertOrder(email: string) {
  const n = ++sequence;
  return db()
    .insert(orders)
    .values({
      orderNumber: String(30_000_000 + n),
      checkoutId: `lookup-checkout-${n}`,
      paymentIntentId: `pi_lookup_${n}`,
      contestName: "秋の発表会",
      customerEmail: email,
      customerName: "照会 太郎",
      totalAmount: 3000,
    })
    .returning()
    .get();
}

async function lookUp(orderNumber: string, email: string, ip: string): Promise<RouteResult> {
  const route = await import("~/routes/storefront/order-lookup");
  const request = formRequest("/order-lookup", [
    ["orderNumber", orderNumber],
    ["email", email],
  ]);
  // The caller's address as the edge hands it on (and as the proxy TRUST_PROXY=1 names would).
  request.headers.set("X-Forwarded-For", ip);
  request.headers.set("X-Shop-Client-Address", ip);
  return callRoute(route.action, request);
}

/** Lets a mail sent after the answer arrive (or not). */
async function settle(ms = 300) {
  await new Promise((r) => setTimeout(r, ms));
}

const mailsTo = (address: string) => smtp.received.filter((m) => m.to.includes(address));

describe("order lookup", () => {
  it("answers the same for a match, an unknown number and a wrong address; mails only the order's address on a match", async () => {
    const order = insertOrder("owner@example.jp");
    const unknown = await lookUp("99999999", "owner@example.jp", freshIp());
    const wrongAddress = await lookUp(order.orderNumber, "someone@example.jp", freshIp());
    const match = await lookUp(order.orderNumber, "  Owner@Example.jp ", freshIp());
    for (const result of [unknown, wrongAddress, match]) {
      expect(result.status).toBe(200);
      expect((result.data as { sent: string }).sent).toBe(ORDER_LOOKUP_MESSAGES.requested);
    }
    // The mail goes after the answer, as long as a loaded machine takes; then a stray one would have come too.
    await vi.waitFor(() => expect(mailsTo("owner@example.jp")).not.toHaveLength(0), { timeout: 5000 });
    await settle();
    expect(mailsTo("someone@example.jp")).toHaveLength(0);
    const mails = mailsTo("owner@example.jp");
    expect(mails).toHaveLength(1);
    expect(mails[0]?.to).toEqual(["owner@example.jp"]);
    expect(mails[0]?.subject).toContain(`注文状況の確認（注文番号 ${order.orderNumber}）`);
    expect(mails[0]?.text).toContain(`http://localhost:3000/orders/${order.statusToken}`);
  });

  it("refuses bad input with 400 and field messages, keeping what was typed", async () => {
    const result = await lookUp("1234", "not-an-address", freshIp());
    expect(result.status).toBe(400);
    const reply = (
      result.data as { result: { error: Record<string, string[]>; initialValue: Record<string, string> } }
    ).result;
    expect(reply.error.orderNumber).toEqual(["注文番号は8桁の数字で入力してください"]);
    expect(reply.error.email).toEqual(["メールアドレスの形式が正しくありません"]);
    expect(reply.initialValue).toMatchObject({ orderNumber: "1234", email: "not-an-address" });
    const empty = await lookUp("", "", freshIp());
    expect(empty.status).toBe(400);
  });

  it("forgives full-width digits and spaces in the number", async () => {
    const order = insertOrder("wide@example.jp");
    const wide = order.orderNumber.replace(/\d/g, (d) => String.fromCharCode(d.charCodeAt(0) + 0xfee0));
    const result = await lookUp(`${wide.slice(0, 4)} ${wide.slice(4)}`, "wide@example.jp", freshIp());
    expect(result.status).toBe(200);
    await vi.waitFor(() => expect(mailsTo("wide@example.jp")).toHaveLength(1), { timeout: 5000 });
  });

  it("limits each address per requester and each origin (whatever the address) with 429, the input kept", async () => {
    const order = insertOrder("limited@example.jp");
    const asker = freshIp();
    for (let i = 0; i < 5; i++)
      expect((await lookUp("99999998", "limited@example.jp", asker)).status).toBe(200);
    const refused = await lookUp(order.orderNumber, "limited@example.jp", asker);
    expect(refused.status).toBe(429);
    const reply = (
      refused.data as { result: { error: Record<string, string[]>; initialValue: Record<string, string> } }
    ).result;
    expect(reply.error[""]).toEqual([ORDER_LOOKUP_MESSAGES.tooMany]);
    expect(reply.initialValue).toMatchObject({ orderNumber: order.orderNumber, email: "limited@example.jp" });
    await settle();
    expect(mailsTo("limited@example.jp")).toHaveLength(0);

    const ip = freshIp();
    for (let i = 0; i < 20; i++)
      expect((await lookUp("99999997", `origin-${i}@example.jp`, ip)).status).toBe(200);
    expect((await lookUp("99999997", "origin-last@example.jp", ip)).status).toBe(429);
  });

  it("mail cap exhaustion: a stranger asking about a parent's address cannot use up the status link she needs", async () => {
    const order = insertOrder("parent@example.jp");
    const stranger = freshIp();
    for (let i = 0; i < 5; i++)
      expect((await lookUp(order.orderNumber, "parent@example.jp", stranger)).status).toBe(200);
    expect((await lookUp(order.orderNumber, "parent@example.jp", stranger)).status).toBe(429);
    await vi.waitFor(() => expect(mailsTo("parent@example.jp")).toHaveLength(5), { timeout: 5000 });

    // The parent, from her own connection, still gets the link to her order's status.
    expect((await lookUp(order.orderNumber, "parent@example.jp", freshIp())).status).toBe(200);
    await vi.waitFor(() => expect(mailsTo("parent@example.jp")).toHaveLength(6), { timeout: 5000 });
    const mails = mailsTo("parent@example.jp");
    expect(mails.at(-1)?.text).toContain(order.orderNumber);
  });
});
