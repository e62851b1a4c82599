import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/server/db/client.server";
import { orderLines, refunds } from "~/server/db/schema";
import { refuseLine, withdrawRefusal } from "~/server/orders/admin/line-refusals.server";
import { listOrderGroups, orderListQuery } from "~/server/orders/admin/order-list.server";
import { refundOrder, refundsOfOrder } from "~/server/refunds/order-refunds.server";
import { paidTestOrder, refundAdmin } from "../../helpers/refund-orders";
import { callRoute } from "../../helpers/route";
import { adminCookie, formRequest } from "../../helpers/shop";
import { smtpServerForThisFile } from "../../helpers/smtp-per-file";

const smtp = smtpServerForThisFile();

let admin = "";
beforeAll(async () => {
  admin = await adminCookie();
});

const mailsTo = (email: string) => smtp.received.filter((mail) => mail.to.includes(email));
async function until(check: () => boolean) {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
}

async function refusePost(fields: [string, string][]) {
  const { action } = await import("~/routes/admin/orders");
  return callRoute(
    action,
    formRequest("/admin/orders?tab=pending", [["intent", "refuse-line"], ...fields], admin),
  );
}

describe("お断り offers the line's refund in the same step", () => {
  it("refuses and refunds the line in one post; a replayed post refunds once; the mail says the refund is made", async () => {
    const { order, lines } = await paidTestOrder();
    const fields: [string, string][] = [
      ["orderId", String(order.id)],
      ["lineId", String(lines[0]!.id)],
      ["note", "当日の撮影に不具合があり、この演技の動画をご用意できませんでした。"],
      ["refund", "on"],
      ["refundKey", `list-key:${lines[0]!.id}`],
    ];
    expect((await refusePost(fields)).status).toBe(303);
    expect((await refusePost(fields)).status).toBe(303);
    expect(db().select().from(orderLines).where(eq(orderLines.id, lines[0]!.id)).get()?.refused).toBe(true);
    expect(refundsOfOrder(order.id)).toMatchObject([
      {
        amount: 3000,
        lineIds: [lines[0]!.id],
        status: "succeeded",
        reason: "当日の撮影に不具合があり、この演技の動画をご用意できませんでした。",
      },
    ]);
    await until(() => mailsTo(order.customerEmail).some((mail) => mail.subject.includes("返金のお知らせ")));
    const refusal = mailsTo(order.customerEmail).find((mail) => mail.subject.includes("お断り"));
    expect(refusal?.text).toContain("この動画の代金（3,000円）は返金いたします");
    expect(refusal?.text).toContain("返金のお知らせ");
    expect(refusal?.text).not.toContain("あらためてショップよりご連絡いたします");
    expect(
      mailsTo(order.customerEmail).filter((mail) => mail.subject.includes("返金のお知らせ")),
    ).toHaveLength(1);
  });

  it("unticked, the line is only refused and the mail keeps saying the shop will be in touch", async () => {
    const { order, lines } = await paidTestOrder();
    const answer = await refusePost([
      ["orderId", String(order.id)],
      ["lineId", String(lines[1]!.id)],
      ["note", "撮影できませんでした。"],
      ["refundKey", `list-key-2:${lines[1]!.id}`],
    ]);
    expect(answer.status).toBe(303);
    expect(refundsOfOrder(order.id)).toHaveLength(0);
    await until(() => mailsTo(order.customerEmail).length > 0);
    expect(mailsTo(order.customerEmail)[0]?.text).toContain(
      "返金につきましては、あらためてショップよりご連絡いたします",
    );
  });

  it("a line refunded before (from the order page) and then refused: the mail says it is refunded, not that the shop will be in touch", async () => {
    const { order, lines } = await paidTestOrder();
    const made = await refundOrder({
      orderId: order.id,
      lineIds: [lines[1]!.id],
      amount: null,
      reason: "撮影できなかったため",
      requestKey: `before-refusal:${lines[1]!.id}`,
      adminUserId: refundAdmin().id,
    });
    expect(made.ok).toBe(true);
    // No refund asked with the refusal: the line has one already (the list offers no tick).
    expect(await refuseLine(order.id, lines[1]!.id, "撮影できませんでした。")).toMatchObject({ ok: true });
    await until(() => mailsTo(order.customerEmail).some((mail) => mail.subject.includes("お断り")));
    const refusal = mailsTo(order.customerEmail).find((mail) => mail.subject.includes("お断り"));
    expect(refusal?.text).toContain("この動画の代金（5,000円）は返金いたします");
    expect(refusal?.text).not.toContain("あらためてショップよりご連絡いたします");
    expect(refundsOfOrder(order.id)).toHaveLength(1);
  });

  it("a refused post keeps the note and the refund's tick", async () => {
    const { order, lines } = await paidTestOrder();
    const answer = await refusePost([
      ["orderId", String(order.id)],
      ["lineId", String(lines[0]!.id)],
      ["note", " "],
      ["refund", "on"],
      ["refundKey", "k"],
    ]);
    expect(answer).toMatchObject({
      status: 400,
      data: { note: " ", refund: true, refusalMessage: "お客様へのお知らせを入力してください" },
    });
    // Ticked without its key (a form from before this change): refused, nothing refunded.
    const keyless = await refusePost([
      ["orderId", String(order.id)],
      ["lineId", String(lines[0]!.id)],
      ["note", "撮影できませんでした。"],
      ["refund", "on"],
    ]);
    expect(keyless.status).toBe(400);
    expect(refundsOfOrder(order.id)).toHaveLength(0);
  });

  it("a refunded line cannot be un-refused; a refund that failed does not hold it", async () => {
    const { order, lines } = await paidTestOrder();
    const adminUser = refundAdmin();
    const refused = await refuseLine(order.id, lines[0]!.id, "撮影できませんでした。", {
      requestKey: `withdraw-${order.id}`,
      adminUserId: adminUser.id,
    });
    expect(refused).toMatchObject({ ok: true, refund: { ok: true, refund: { status: "succeeded" } } });
    expect(await withdrawRefusal(order.id, lines[0]!.id)).toEqual({
      ok: false,
      status: 409,
      message: "この明細は返金済み（または返金手続き中）のため、お断りを取り消せません。",
    });
    // Through the list's button: the error toast, and the line stays refused.
    const { action } = await import("~/routes/admin/orders");
    const answer = await callRoute(
      action,
      formRequest(
        "/admin/orders?tab=pending",
        [
          ["intent", "withdraw-refusal"],
          ["orderId", String(order.id)],
          ["lineId", String(lines[0]!.id)],
        ],
        admin,
      ),
    );
    expect(answer.status).toBe(303);
    expect(db().select().from(orderLines).where(eq(orderLines.id, lines[0]!.id)).get()?.refused).toBe(true);

    db().update(refunds).set({ status: "failed" }).where(eq(refunds.orderId, order.id)).run();
    expect(await withdrawRefusal(order.id, lines[0]!.id)).toMatchObject({ ok: true });
  });
});

describe("the order list marks refunded orders and filters them (返金あり)", () => {
  it("marks 返金済み / 一部返金 / 返金手続き中 and lists only orders with a counted refund under refund=1", async () => {
    const adminUser = refundAdmin();
    const refund = (orderId: number, amount: number, key: string) =>
      refundOrder({
        orderId,
        lineIds: [],
        amount,
        reason: "テスト",
        requestKey: key,
        adminUserId: adminUser.id,
      });
    const whole = await paidTestOrder({ prices: [3000] });
    const part = await paidTestOrder();
    const konbini = await paidTestOrder({ konbini: true });
    const none = await paidTestOrder();
    const failed = await paidTestOrder();
    const stamp = Date.now();
    await refund(whole.order.id, 3000, `mark-whole-${stamp}`);
    await refund(part.order.id, 1000, `mark-part-${stamp}`);
    await refund(konbini.order.id, 1000, `mark-konbini-${stamp}`);
    await refund(failed.order.id, 1000, `mark-failed-${stamp}`);
    db().update(refunds).set({ status: "failed" }).where(eq(refunds.orderId, failed.order.id)).run();

    const listed = (params: string) =>
      listOrderGroups({ ...orderListQuery(new URLSearchParams(params)), page: 1 }).groups.filter((group) =>
        [whole, part, konbini, none, failed].some(({ order }) => order.id === group.id),
      );
    const marks = Object.fromEntries(listed("tab=pending").map((group) => [group.id, group.refundMark]));
    expect(marks).toEqual({
      [whole.order.id]: "返金済み",
      [part.order.id]: "一部返金",
      [konbini.order.id]: "返金手続き中",
      [none.order.id]: null,
      [failed.order.id]: null,
    });
    expect(
      listed("tab=pending&refund=1")
        .map((group) => group.id)
        .sort(),
    ).toEqual([whole.order.id, part.order.id, konbini.order.id].sort());
    // A refund written after the list was counted shows at once (orders_version moves with refunds).
    await refund(none.order.id, 500, `mark-none-${stamp}`);
    expect(listed("tab=pending&refund=1").map((group) => group.id)).toContain(none.order.id);
  });

  it("the screen keeps 返金あり in its links", async () => {
    const { loader } = await import("~/routes/admin/orders");
    const shown = await callRoute(
      loader,
      new Request("http://shop.test/admin/orders?tab=pending&refund=1", { headers: { Cookie: admin } }),
    );
    expect(shown.status).toBe(200);
    expect(shown.data).toMatchObject({ refund: true });
    const { orderListHref } = await import("~/routes/admin/order-list/order-list-link");
    expect(
      orderListHref({ tab: "pending", contestParam: "", q: "", page: 1, refund: true }, { page: "2" }),
    ).toBe("?tab=pending&refund=1&page=2");
  });
});
