import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/server/db/client.server";
import { refunds } from "~/server/db/schema";
import { refundsOfOrder } from "~/server/refunds/order-refunds.server";
import { paidTestOrder } from "../../helpers/refund-orders";
import { callRoute } from "../../helpers/route";
import { adminCookie, formRequest, sessionCookie } from "../../helpers/shop";
import { smtpServerForThisFile } from "../../helpers/smtp-per-file";

smtpServerForThisFile();

const route = () => import("~/routes/admin/order");

let admin = "";
beforeAll(async () => {
  admin = await adminCookie();
});

type Reply = {
  status?: string;
  error?: Record<string, string[] | null>;
  initialValue?: Record<string, unknown>;
};
type Answer = { reply: Reply; confirm: { amount: number; lineIds: number[]; requestKey: string } | null };

async function post(orderNumber: string, fields: [string, string][], cookie = admin) {
  const { action } = await route();
  return callRoute(action, formRequest(`/admin/orders/${orderNumber}`, fields, cookie), { orderNumber });
}

async function page(orderNumber: string, cookie = admin) {
  const { loader } = await route();
  return callRoute(
    loader,
    new Request(`http://shop.test/admin/orders/${orderNumber}`, { headers: { Cookie: cookie } }),
    {
      orderNumber,
    },
  );
}

describe("the order page's refund form", () => {
  it("shows the order with what is left to refund, and a one-time key per drawing", async () => {
    const { order } = await paidTestOrder();
    const first = await page(order.orderNumber);
    expect(first.status).toBe(200);
    const data = first.data as { left: number; requestKey: string; lines: { price: number }[] };
    expect(data.left).toBe(8000);
    expect(data.lines.map((line) => line.price)).toEqual([3000, 5000]);
    const second = (await page(order.orderNumber)).data as { requestKey: string };
    expect(second.requestKey).not.toBe(data.requestKey);
  });

  it("refunds chosen lines: 確認 answers the confirmation, 返金する refunds once even when posted twice", async () => {
    const { order, lines } = await paidTestOrder();
    const fields: [string, string][] = [
      ["requestKey", `key-${order.id}`],
      ["lineIds", String(lines[1]!.id)],
      ["reason", "撮影できなかったため"],
    ];
    const review = await post(order.orderNumber, [["intent", "review"], ...fields]);
    expect(review.status).toBe(200);
    expect((review.data as Answer).confirm).toMatchObject({ amount: 5000, lineIds: [lines[1]!.id] });
    expect(refundsOfOrder(order.id)).toHaveLength(0);

    const done = await post(order.orderNumber, [["intent", "refund"], ...fields]);
    expect(done).toMatchObject({ status: 303, location: `/admin/orders/${order.orderNumber}` });
    const again = await post(order.orderNumber, [["intent", "refund"], ...fields]);
    expect(again.status).toBe(303);
    expect(refundsOfOrder(order.id)).toMatchObject([
      { amount: 5000, status: "succeeded", lineIds: [lines[1]!.id] },
    ]);

    const after = (await page(order.orderNumber)).data as {
      left: number;
      lines: { refundState: string | null }[];
      refunds: { statusLabel: string; lineNumbers: string[] }[];
    };
    expect(after.left).toBe(3000);
    expect(after.lines.map((line) => line.refundState)).toEqual([null, "返金済み"]);
    expect(after.refunds).toMatchObject([{ statusLabel: "返金済み", lineNumbers: [lines[1]!.lineNumber] }]);
  });

  it("refunds a typed amount (1,000円 as the admin types it), once for a double submit", async () => {
    const { order } = await paidTestOrder();
    const fields: [string, string][] = [
      ["requestKey", `amount-${order.id}`],
      ["amount", "１,０００円"],
      ["reason", "一部返金"],
    ];
    const review = await post(order.orderNumber, [["intent", "review"], ...fields]);
    expect((review.data as Answer).confirm).toMatchObject({ amount: 1000, lineIds: [] });
    // A double submit: both posts carry the form's key, and only one refund is made.
    const [first, second] = await Promise.all([
      post(order.orderNumber, [["intent", "refund"], ...fields]),
      post(order.orderNumber, [["intent", "refund"], ...fields]),
    ]);
    expect([first.status, second.status]).toEqual([303, 303]);
    expect(refundsOfOrder(order.id)).toMatchObject([{ amount: 1000, lineIds: [] }]);
  });

  it("a bad amount is a 400 with the message under the field and the typed values kept", async () => {
    const { order } = await paidTestOrder();
    const tries: [string, string][] = [
      ["0", "返金額は1円以上で入力してください"],
      ["8001", "返金できるのは残りの8,000円までです"],
      ["abc", "返金額は数字だけで入力してください（空白や記号は使えません。例: 3000）"],
      ["12.5", "返金額は1円単位で入力してください"],
    ];
    for (const [amount, message] of tries) {
      const answer = await post(order.orderNumber, [
        ["intent", "review"],
        ["requestKey", `bad-${order.id}`],
        ["amount", amount],
        ["reason", "理由あり"],
      ]);
      expect(answer.status, amount).toBe(400);
      const { reply, confirm } = answer.data as Answer;
      expect(confirm).toBeNull();
      expect(reply.error?.amount, amount).toEqual([message]);
      expect(reply.initialValue).toMatchObject({ amount, reason: "理由あり" });
    }
    // Neither lines nor an amount, and no reason.
    const empty = await post(order.orderNumber, [
      ["intent", "review"],
      ["requestKey", `bad-${order.id}`],
      ["reason", " "],
    ]);
    expect(empty.status).toBe(400);
    expect((empty.data as Answer).reply.error).toMatchObject({
      lineIds: ["返金する明細を選ぶか、返金額を入力してください"],
      reason: ["返金の理由を入力してください"],
    });
    expect(refundsOfOrder(order.id)).toHaveLength(0);
  });

  it("refund amount in another notation: 0x10, 1e3 ... are refused with a message and kept", async () => {
    const { order } = await paidTestOrder();
    const notation = "返金額は数字だけで入力してください（空白や記号は使えません。例: 3000）";
    // Each of these is a number to JavaScript's Number() (0x10 is 16, 1e3 is 1,000), none is yen as typed.
    const tries: [string, string][] = [
      ["0x10", notation],
      ["1e3", notation],
      ["+5", notation],
      [" 5 ", notation],
      ["-5", notation],
      ["1,0000", notation],
      ["0b11", notation],
      ["Infinity", notation],
      ["5.0", "返金額は1円単位で入力してください"],
    ];
    for (const [amount, message] of tries) {
      const answer = await post(order.orderNumber, [
        ["intent", "review"],
        ["requestKey", `notation-${order.id}`],
        ["amount", amount],
        ["reason", "表記の確認"],
      ]);
      expect(answer.status, amount).toBe(400);
      const { reply, confirm } = answer.data as Answer;
      expect(confirm, amount).toBeNull();
      expect(reply.error?.amount, amount).toEqual([message]);
      expect(reply.initialValue, amount).toMatchObject({ amount, reason: "表記の確認" });
    }
    // Nothing typed is no amount: the form asks for lines or an amount.
    const empty = await post(order.orderNumber, [
      ["intent", "review"],
      ["requestKey", `notation-${order.id}`],
      ["amount", ""],
      ["reason", "表記の確認"],
    ]);
    expect(empty.status).toBe(400);
    expect((empty.data as Answer).reply.error?.lineIds).toEqual([
      "返金する明細を選ぶか、返金額を入力してください",
    ]);
    // Posted as the confirmation's 返金する too, none of them refunds anything.
    const refund = await post(order.orderNumber, [
      ["intent", "refund"],
      ["requestKey", `notation-refund-${order.id}`],
      ["amount", "0x10"],
      ["reason", "表記の確認"],
    ]);
    expect(refund.status).toBe(400);
    expect(refundsOfOrder(order.id)).toHaveLength(0);
    // Plain yen as the page writes it still reads: 全角 digits, thousands commas, 円.
    for (const [typed, yen] of [
      ["16", 16],
      ["1,000", 1000],
      ["３，０００", 3000],
      ["3,000円", 3000],
    ] as const) {
      const review = await post(order.orderNumber, [
        ["intent", "review"],
        ["requestKey", `notation-${order.id}`],
        ["amount", typed],
        ["reason", "表記の確認"],
      ]);
      expect((review.data as Answer).confirm?.amount, typed).toBe(yen);
    }
  });

  it("refusing the refund itself (already refunded line) answers the rule's message with the values kept", async () => {
    const { order, lines } = await paidTestOrder();
    const once = (key: string) =>
      post(order.orderNumber, [
        ["intent", "refund"],
        ["requestKey", key],
        ["lineIds", String(lines[0]!.id)],
        ["reason", "お断り"],
      ]);
    expect((await once(`one-${order.id}`)).status).toBe(303);
    const second = await once(`two-${order.id}`);
    expect(second.status).toBe(422);
    const { reply } = second.data as Answer;
    expect(reply.error?.[""]).toEqual([
      `明細 ${lines[0]!.lineNumber} は返金済み（または返金手続き中）です。`,
    ]);
    expect(reply.initialValue).toMatchObject({ reason: "お断り" });
  });

  it("戻る brings the form back as typed", async () => {
    const { order, lines } = await paidTestOrder();
    const back = await post(order.orderNumber, [
      ["intent", "edit"],
      ["requestKey", `edit-${order.id}`],
      ["lineIds", String(lines[0]!.id)],
      ["reason", "やり直し"],
    ]);
    expect(back.status).toBe(200);
    const { reply, confirm } = back.data as Answer;
    expect(confirm).toBeNull();
    expect(reply.initialValue).toMatchObject({ reason: "やり直し", requestKey: `edit-${order.id}` });
    expect(refundsOfOrder(order.id)).toHaveLength(0);
  });

  it("a konbini refund waits, and テストモード's button ends it as Stripe's webhook would", async () => {
    const { order, lines } = await paidTestOrder({ konbini: true });
    const done = await post(order.orderNumber, [
      ["intent", "refund"],
      ["requestKey", `konbini-${order.id}`],
      ["lineIds", String(lines[0]!.id)],
      ["reason", "撮影できなかったため"],
    ]);
    expect(done.status).toBe(303);
    const [refund] = refundsOfOrder(order.id);
    expect(refund).toMatchObject({ status: "processing", method: "konbini" });
    const shown = (await page(order.orderNumber)).data as { refunds: { testCompletable: boolean }[] };
    expect(shown.refunds[0]!.testCompletable).toBe(true);
    const ended = await post(order.orderNumber, [
      ["intent", "complete-test-refund"],
      ["refundId", String(refund!.id)],
    ]);
    expect(ended.status).toBe(303);
    expect(db().select().from(refunds).where(eq(refunds.id, refund!.id)).get()?.status).toBe("succeeded");
    // A refund of another order is not this page's to end.
    const other = await paidTestOrder({ konbini: true });
    expect(
      (
        await post(other.order.orderNumber, [
          ["intent", "complete-test-refund"],
          ["refundId", String(refund!.id)],
        ])
      ).status,
    ).toBe(303);
  });

  it("strangers and customers get no page and refund nothing; an unknown number is the shop's 404", async () => {
    const { order, lines } = await paidTestOrder();
    const customer = await adminCookie({ isAdmin: false });
    const anonymous = await sessionCookie({});
    const fields: [string, string][] = [
      ["intent", "refund"],
      ["requestKey", `stranger-${order.id}`],
      ["lineIds", String(lines[0]!.id)],
      ["reason", "x"],
    ];
    for (const cookie of [customer, anonymous, ""]) {
      const shown = await page(order.orderNumber, cookie);
      expect(shown.status).toBe(302);
      expect(shown.location).toBe("/admin-login");
      expect((await post(order.orderNumber, fields, cookie)).status).toBe(302);
    }
    expect(refundsOfOrder(order.id)).toHaveLength(0);
    expect((await page("99999999")).status).toBe(404);
    expect((await post("99999999", fields)).status).toBe(404);
  });
});
