import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { lineRefusalSchema } from "~/lib/schemas/line-refusal-schemas";
import { db } from "~/server/db/client.server";
import { orderLines, orders } from "~/server/db/schema";
import { completeOrder, deliverOrder } from "~/server/delivery/order-delivery.server";
import { downloadPage } from "~/server/orders/customer/downloads.server";
import { refuseLine, withdrawRefusal } from "~/server/orders/admin/line-refusals.server";
import { orderListCounts } from "~/server/orders/admin/order-list.server";
import { orderStatusByToken } from "~/server/orders/customer/order-status.server";
import { callRoute } from "../../../helpers/route";
import { adminCookie, formRequest } from "../../../helpers/shop";
import { smtpServerForThisFile } from "../../../helpers/smtp-per-file";

const smtp = smtpServerForThisFile();

let n = 0;
function order() {
  const orderNumber = String(31_000_000 + ++n);
  const email = `refusal${n}-${Date.now()}@example.jp`;
  const row = db()
    .insert(orders)
    .values({
      orderNumber,
      checkoutId: `rc${orderNumber}`,
      paymentIntentId: `rpi${orderNumber}`,
      contestName: "お断りテスト大会",
      bibNumberLabel: "演奏順",
      customerEmail: email,
      customerName: "お断り 花子",
      totalAmount: 7500,
      lineCount: 2,
    })
    .returning()
    .get();
  const lines = db()
    .insert(orderLines)
    .values(
      [1, 2].map((i) => ({
        orderId: row.id,
        lineNumber: `${orderNumber}-${i}`,
        contestName: "お断りテスト大会",
        category: "A",
        athleteNumber: i,
        athleteName: `選手${i}`,
        style: i === 1 ? "縦" : "横",
        orientation: i === 1 ? ("vertical" as const) : ("horizontal" as const),
        price: i === 1 ? 3000 : 4500,
      })),
    )
    .returning()
    .all();
  return { order: row, lines, email };
}

const line = (id: number) => db().select().from(orderLines).where(eq(orderLines.id, id)).get()!;
const mailsTo = (email: string) => smtp.received.filter((m) => m.to.includes(email));

describe("お断り of an order line, with a note to the customer", () => {
  it("marks the line, mails the customer the note and the refund to follow, and shows it on the status page", async () => {
    const { order: o, lines, email } = order();
    const note = "当日の撮影に不具合があり、この演技の動画をご用意できませんでした。";
    expect(await refuseLine(o.id, lines[0]!.id, note)).toEqual({ ok: true, mail: "sent" });
    expect(line(lines[0]!.id)).toMatchObject({
      refused: true,
      refusalNote: note,
      status: "未対応",
    });
    const [mail] = mailsTo(email);
    expect(mail?.subject).toBe(
      `【コンテスト動画ショップ】動画制作のお断りについて（注文番号 ${o.orderNumber}）`,
    );
    expect(mail?.text).toContain(note);
    expect(mail?.text).toContain("演奏順 1 選手1・縦");
    expect(mail?.text).toContain("返金につきましては、あらためてショップよりご連絡いたします");
    expect(mail?.text).toContain(`/orders/${o.statusToken}`);
    const status = orderStatusByToken(o.statusToken)!;
    expect(status.lines.map((l) => l.refusalNote)).toEqual([note, null]);
    // The refused line needs no file: it is not counted as waiting for one.
    expect(orderListCounts({ kind: "all" }).linesWithoutFile).toBeGreaterThanOrEqual(1);
  });

  it("納品 does not wait for a refused line; it is handled without a video and the download page says so", async () => {
    const { order: o, lines, email } = order();
    await refuseLine(o.id, lines[0]!.id, "撮影できませんでした。");
    const result = await deliverOrder(o.id, new Map([[lines[1]!.id, "https://videos.example.jp/2.mp4"]]));
    expect(result).toMatchObject({ ok: true, mail: "sent" });
    expect(line(lines[0]!.id)).toMatchObject({
      status: "対応済み",
      videoDownloadUrl: null,
      refused: true,
    });
    expect(line(lines[1]!.id)).toMatchObject({ status: "納品済み" });
    const delivery = mailsTo(email).find((m) => m.subject.includes("動画のご用意ができました"));
    expect(delivery?.text).toContain("動画（1本）");
    const page = downloadPage(result.ok ? result.pageId : "")!;
    expect(page.lines.map((l) => [l.refusalNote, l.delivered])).toEqual([
      ["撮影できませんでした。", false],
      [null, true],
    ]);
    // Once delivered, the refusal is final.
    expect(await withdrawRefusal(o.id, lines[0]!.id)).toMatchObject({ ok: false, status: 409 });
  });

  it("an order whose every line is refused is closed with 完了, not delivered", async () => {
    const { order: o, lines } = order();
    for (const l of lines) await refuseLine(o.id, l.id, "制作できませんでした。");
    expect(await deliverOrder(o.id, new Map())).toEqual({
      ok: false,
      status: 409,
      message:
        "すべての明細がお断りまたは返金済みのため、納品する動画がありません。「完了」で対応済みにしてください。",
    });
    expect(completeOrder(o.id)).toBe(true);
    expect(line(lines[0]!.id)).toMatchObject({ status: "対応済み", refused: true });
  });

  it("undo: the line is back in production and the customer is told", async () => {
    const { order: o, lines, email } = order();
    await refuseLine(o.id, lines[1]!.id, "撮影できませんでした。");
    expect(await withdrawRefusal(o.id, lines[1]!.id)).toEqual({ ok: true, mail: "sent" });
    expect(line(lines[1]!.id)).toMatchObject({
      refused: false,
      refusalNote: null,
      refusedAt: null,
    });
    expect(mailsTo(email).at(-1)?.subject).toBe(
      `【コンテスト動画ショップ】動画制作のお断りの取り消しについて（注文番号 ${o.orderNumber}）`,
    );
    expect(await withdrawRefusal(o.id, lines[1]!.id)).toMatchObject({ ok: false, status: 409 });
    // The line must belong to the order.
    const other = order();
    expect(await refuseLine(o.id, other.lines[0]!.id, "x")).toMatchObject({ ok: false, status: 404 });
  });

  it("the note is required and at most 500 characters; an unpaid order's lines cannot be refused", async () => {
    expect(lineRefusalSchema.safeParse({ lineId: "1", note: "  " }).error?.issues[0]?.message).toBe(
      "お客様へのお知らせを入力してください",
    );
    expect(
      lineRefusalSchema.safeParse({ lineId: "1", note: "あ".repeat(501) }).error?.issues[0]?.message,
    ).toBe("お客様へのお知らせは500文字以内で入力してください");
    const { order: o, lines } = order();
    db().update(orders).set({ paymentStatus: "awaiting" }).where(eq(orders.id, o.id)).run();
    expect(await refuseLine(o.id, lines[0]!.id, "x")).toMatchObject({ ok: false, status: 409 });
  });

  it("the order list's form: a blank note answers 400 with the message and what was typed; a good one 303", async () => {
    const { action } = await import("~/routes/admin/orders");
    const cookie = await adminCookie();
    const { order: o, lines } = order();
    const post = (note: string) =>
      formRequest(
        "/admin/orders?tab=pending",
        [
          ["orderId", String(o.id)],
          ["lineId", String(lines[0]!.id)],
          ["intent", "refuse-line"],
          ["note", note],
        ],
        cookie,
      );
    const refused = await callRoute(action, post("   "));
    expect(refused).toMatchObject({
      status: 400,
      data: {
        orderId: o.id,
        lineId: lines[0]!.id,
        note: "   ",
        refusalMessage: "お客様へのお知らせを入力してください",
      },
    });
    expect(line(lines[0]!.id).refused).toBe(false);
    const done = await callRoute(action, post("撮影できませんでした。"));
    expect(done.status).toBe(303);
    expect(line(lines[0]!.id).refused).toBe(true);
    // Without an admin session nothing changes.
    const anonymous = await callRoute(
      action,
      formRequest("/admin/orders", [
        ["orderId", String(o.id)],
        ["lineId", String(lines[1]!.id)],
        ["intent", "refuse-line"],
        ["note", "x"],
      ]),
    );
    expect(anonymous.status).not.toBe(303);
    expect(line(lines[1]!.id).refused).toBe(false);
  });
});
