import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as listRoute from "~/routes/api/orders/list";
import * as completeRoute from "~/routes/api/orders/complete";
import * as deliverRoute from "~/routes/api/orders/deliver";
import * as downloadRoute from "~/routes/api/download";
import { createContest } from "~/server/catalog/contests.server";
import { db } from "~/server/db/client.server";
import { downloadPages, mailOutbox, orderLines, orders } from "~/server/db/schema";
import { ORDER_GROUPS_PAGE_SIZE } from "~/server/orders/admin/order-list.server";
import { adminWithToken, apiCall } from "../../../helpers/api";
import { adminCookie, sessionCookie } from "../../../helpers/shop";
import { startSmtpServer } from "../../../helpers/smtp";

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let writer: ReturnType<typeof adminWithToken>;
let reader: ReturnType<typeof adminWithToken>;
beforeAll(async () => {
  smtp = await startSmtpServer();
  // Before anything reads the configuration (the tokens' rows do).
  process.env.SMTP_URL = smtp.url;
  writer = adminWithToken("write");
  reader = adminWithToken("read");
});
afterAll(() => smtp.close());

let n = 0;
/** A paid order (unless said otherwise) with `lines` order lines, of a contest or none. */
function order(
  options: {
    lines?: number;
    contestId?: number | null;
    paymentStatus?: "paid" | "awaiting";
    createdAt?: Date;
  } = {},
) {
  n++;
  const orderNumber = String(30_000_000 + n);
  const email = `api-order-${n}@example.jp`;
  const lineCount = options.lines ?? 2;
  const row = db()
    .insert(orders)
    .values({
      orderNumber,
      checkoutId: `api-c${n}`,
      paymentIntentId: `api-pi${n}`,
      contestId: options.contestId ?? null,
      contestName: "APIテスト大会",
      customerEmail: email,
      customerName: `注文 花子${n}`,
      totalAmount: 3000 * lineCount,
      lineCount,
      paymentStatus: options.paymentStatus ?? "paid",
      createdAt: options.createdAt ?? new Date(),
    })
    .returning()
    .get();
  const lines = db()
    .insert(orderLines)
    .values(
      Array.from({ length: lineCount }, (_, i) => ({
        orderId: row.id,
        lineNumber: `${orderNumber}-${i + 1}`,
        contestName: "APIテスト大会",
        category: "A部門",
        athleteNumber: i + 1,
        athleteName: `選手${i + 1}`,
        style: i % 2 ? "横" : "縦",
        orientation: i % 2 ? ("horizontal" as const) : ("vertical" as const),
        price: 3000,
      })),
    )
    .returning()
    .all();
  return { order: row, lines, email };
}

const mailsTo = (address: string) => smtp.received.filter((mail) => mail.to.includes(address));
const lineRows = (orderId: number) =>
  db().select().from(orderLines).where(eq(orderLines.orderId, orderId)).all();
const orderRow = (id: number) => db().select().from(orders).where(eq(orders.id, id)).get();

type ListAnswer = {
  orderLines: Record<string, unknown>[];
  tab: string;
  page: number;
  pageSize: number;
  pages: number;
  totalOrders: number;
};
const list = async (
  query: string,
  options: { token?: string; cookie?: string } = { token: reader.token },
) => {
  const answer = await apiCall(listRoute, "GET", `/api/video/orders${query}`, options);
  return { ...answer, list: answer.data as ListAnswer };
};

const complete = (orderNumber: string, token = writer.token) =>
  apiCall(completeRoute, "PATCH", `/api/orders/complete/${orderNumber}`, { token, params: { orderNumber } });

const deliver = (orderNumber: string, json: unknown, token = writer.token) =>
  apiCall(deliverRoute, "POST", `/api/orders/${orderNumber}/deliver`, {
    token,
    json,
    params: { orderNumber },
  });

describe("GET /api/video/orders", () => {
  it("lists the order lines with the spec's fields, searched as the order list is", async () => {
    const { order: o, lines, email } = order();
    const { status, list: answer } = await list(`?q=${o.orderNumber}`);
    expect(status).toBe(200);
    expect(answer).toMatchObject({
      tab: "pending",
      page: 1,
      pageSize: ORDER_GROUPS_PAGE_SIZE,
      pages: 1,
      totalOrders: 1,
    });
    expect(answer.orderLines).toEqual(
      lines.map((line) => ({
        id: line.id,
        orderNumber: line.lineNumber,
        contestName: "APIテスト大会",
        category: "A部門",
        athleteNumber: line.athleteNumber,
        style: line.style,
        productionPossible: false,
        price: 3000,
        // Nothing refunded (tests/server/refunds/refunds-customer.test.ts has a refunded order).
        refundStatus: null,
        refundedAmount: 0,
        orderTotalAmount: 6000,
        orderRefundedAmount: 0,
        orderNetAmount: 6000,
        status: "未対応",
        videoDownloadUrl: null,
        orderDate: o.createdAt.toISOString(),
        customerEmail: email,
        customerName: o.customerName,
        paymentStatus: "paid",
      })),
    );
    // By e-mail, and by a line's number as the screen's search does.
    expect((await list(`?q=${email}`)).list.totalOrders).toBe(1);
    expect((await list(`?q=${o.orderNumber}-2`)).list.orderLines).toHaveLength(2);
  });

  it("filters by tab and by contest (its id, or deleted), as the screen's query does", async () => {
    const contestId = createContest(`注文APIの大会${Math.random().toString(36).slice(2, 8)}`);
    const mine = order({ contestId, lines: 1 });
    const handled = order({ contestId, lines: 1 });
    const unpaid = order({ contestId, lines: 1, paymentStatus: "awaiting" });
    expect((await complete(handled.order.orderNumber)).status).toBe(200);
    const numbers = async (query: string) =>
      (await list(query)).list.orderLines.map((line) => String(line.orderNumber));
    expect(await numbers(`?contest=${contestId}`)).toEqual([`${mine.order.orderNumber}-1`]);
    expect(await numbers(`?contest=${contestId}&tab=handled`)).toEqual([`${handled.order.orderNumber}-1`]);
    expect(await numbers(`?contest=${contestId}&tab=awaiting`)).toEqual([`${unpaid.order.orderNumber}-1`]);
    expect(await numbers(`?contest=deleted&q=${mine.order.orderNumber}`)).toEqual([]);
    const deleted = order({ lines: 1 });
    expect(await numbers(`?contest=deleted&q=${deleted.order.orderNumber}`)).toEqual([
      `${deleted.order.orderNumber}-1`,
    ]);
  });

  it("pages by order, in SQL: a page never splits an order's lines", async () => {
    const contestId = createContest(`ページの大会${Math.random().toString(36).slice(2, 8)}`);
    const base = Date.now() - 3_600_000;
    const made = Array.from({ length: ORDER_GROUPS_PAGE_SIZE + 1 }, (_, i) =>
      order({ contestId, lines: 3, createdAt: new Date(base + i * 1000) }),
    );
    const first = (await list(`?contest=${contestId}&page=1`)).list;
    expect(first).toMatchObject({ page: 1, pages: 2, totalOrders: ORDER_GROUPS_PAGE_SIZE + 1 });
    expect(first.orderLines).toHaveLength(ORDER_GROUPS_PAGE_SIZE * 3);
    const second = (await list(`?contest=${contestId}&page=2`)).list;
    // The oldest order, whole, alone on the last page (newest first).
    expect(second.orderLines.map((line) => line.orderNumber)).toEqual(
      made[0]!.lines.map((line) => line.lineNumber),
    );
    // A page past the end is empty, not an error; a malformed one is the first.
    expect((await list(`?contest=${contestId}&page=9`)).list.orderLines).toEqual([]);
    expect((await list(`?contest=${contestId}&page=abc`)).list.page).toBe(1);
  });

  it("answers only admins: 401 to anyone else, 405 to another method", async () => {
    expect((await list("", {})).status).toBe(401);
    expect((await list("", { cookie: await adminCookie({ isAdmin: false }) })).status).toBe(401);
    expect((await list("", { cookie: await adminCookie() })).status).toBe(200);
    // POST at this address is the storefront's order draft (tests/server/checkout/api-checkout.test.ts), not the list's.
    expect(
      (await apiCall(listRoute, "DELETE", "/api/video/orders", { token: writer.token, json: {} })).status,
    ).toBe(405);
  });
});

describe("PATCH /api/orders/complete/{orderNumber}", () => {
  it("moves the order to 対応済み by its number or a line's (-N), without a mail", async () => {
    const first = order();
    expect(await complete(first.order.orderNumber)).toMatchObject({
      status: 200,
      data: { orderNumber: first.order.orderNumber, status: "対応済み" },
    });
    expect(orderRow(first.order.id)?.status).toBe("対応済み");
    expect(lineRows(first.order.id).every((line) => line.status === "対応済み")).toBe(true);
    const second = order();
    expect((await complete(`${second.order.orderNumber}-2`)).status).toBe(200);
    expect(orderRow(second.order.id)?.status).toBe("対応済み");
    expect(mailsTo(first.email)).toHaveLength(0);
  });

  it("answers 404 for an unknown order, 409 for an unpaid one", async () => {
    expect(await complete("99999999")).toMatchObject({
      status: 404,
      data: { message: "注文が見つかりません" },
    });
    expect((await complete("not-a-number")).status).toBe(404);
    const unpaid = order({ paymentStatus: "awaiting" });
    expect(await complete(unpaid.order.orderNumber)).toMatchObject({
      status: 409,
      data: { message: expect.stringContaining("完了処理に失敗しました。") },
    });
    expect(orderRow(unpaid.order.id)?.status).toBe("未対応");
  });

  it("attack: a read-only token, a customer and a visitor change nothing (403, 401)", async () => {
    const { order: o } = order();
    expect(await complete(o.orderNumber, reader.token)).toMatchObject({
      status: 403,
      data: { message: "このAPIトークンは読み取り専用です" },
    });
    const customer = await sessionCookie({ userId: 1 });
    const asCustomer = await apiCall(completeRoute, "PATCH", `/api/orders/complete/${o.orderNumber}`, {
      cookie: customer,
      params: { orderNumber: o.orderNumber },
    });
    expect(asCustomer.status).toBe(401);
    expect(orderRow(o.id)?.status).toBe("未対応");
    expect((await apiCall(completeRoute, "GET", `/api/orders/complete/${o.orderNumber}`)).status).toBe(405);
  });
});

describe("POST /api/orders/{orderNumber}/deliver", () => {
  const urlsFor = (lines: { id: number }[]) =>
    Object.fromEntries(lines.map((line) => [String(line.id), `https://videos.example.jp/${line.id}.mp4`]));

  it("saves every line's URL, makes the download page, moves the order to 納品済み and mails the customer once", async () => {
    const { order: o, lines, email } = order();
    const answer = await deliver(o.orderNumber, { downloadUrls: urlsFor(lines) });
    expect(answer).toMatchObject({
      status: 200,
      data: {
        orderNumber: o.orderNumber,
        customerEmailSent: true,
        message: "お客様にメールを送信しました。",
      },
    });
    expect(orderRow(o.id)?.status).toBe("納品済み");
    expect(lineRows(o.id).map((line) => [line.status, line.videoDownloadUrl])).toEqual(
      lines.map((line) => ["納品済み", `https://videos.example.jp/${line.id}.mp4`]),
    );
    const page = db().select().from(downloadPages).where(eq(downloadPages.orderId, o.id)).get();
    expect(mailsTo(email)).toHaveLength(1);
    expect(mailsTo(email)[0]?.text).toContain(`/download/${page?.id}`);
    // A second 納品 (a corrected URL) saves it, but the customer was mailed already.
    const again = await deliver(`${o.orderNumber}-1`, { downloadUrls: urlsFor(lines) });
    expect(again).toMatchObject({ status: 200, data: { customerEmailSent: false } });
    expect(mailsTo(email)).toHaveLength(1);
    // The list shows the delivered lines with their URLs.
    const listed = (await list(`?tab=handled&q=${o.orderNumber}`)).list.orderLines;
    expect(listed.map((line) => line.videoDownloadUrl)).toEqual(
      lines.map((line) => `https://videos.example.jp/${line.id}.mp4`),
    );
  });

  it("GET /api/download/{id}: the delivered order's download page for whoever holds its link; 404 otherwise", async () => {
    const { order: o, lines } = order();
    await deliver(o.orderNumber, { downloadUrls: urlsFor(lines) });
    const page = db().select().from(downloadPages).where(eq(downloadPages.orderId, o.id)).get();
    const read = (id: string, method = "GET") =>
      apiCall(downloadRoute, method, `/api/download/${id}`, { params: { id } });
    const answer = await read(page?.id ?? "");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Cache-Control")).toBe("no-store");
    expect(answer.data).toMatchObject({ orderNumber: o.orderNumber, expired: false });
    const shown = (answer.data as { orders: { id: number; athleteName: string | null }[] }).orders;
    expect(shown.map((line) => line.id)).toEqual(lines.map((line) => line.id));
    // The page object names the videos, never their URLs: those are reached through the page.
    expect(JSON.stringify(answer.data)).not.toContain("videos.example.jp");
    expect((await read("not-a-download-page")).status).toBe(404);
    expect((await read(page?.id ?? "", "POST")).status).toBe(405);
  });

  it("refuses unless every line has a URL (422 with the screen's message), and saves nothing then", async () => {
    const { order: o, lines } = order();
    const one = await deliver(o.orderNumber, {
      downloadUrls: { [lines[0]!.id]: "https://videos.example.jp/1.mp4" },
    });
    expect(one).toMatchObject({
      status: 422,
      data: {
        message: "すべての動画のダウンロードURLを入力してください。",
        fields: { downloadUrls: ["すべての動画のダウンロードURLを入力してください。"] },
      },
    });
    const script = await deliver(o.orderNumber, {
      downloadUrls: Object.fromEntries(lines.map((line) => [line.id, "javascript:alert(1)"])),
    });
    expect(script).toMatchObject({
      status: 422,
      data: { message: "ダウンロードURLは http:// または https:// で始まるURLを入力してください。" },
    });
    expect(await deliver(o.orderNumber, {})).toMatchObject({
      status: 422,
      data: { fields: { downloadUrls: ["すべての動画のダウンロードURLを入力してください。"] } },
    });
    expect(await deliver(o.orderNumber, { downloadUrls: { abc: "https://x.example/1.mp4" } })).toMatchObject({
      status: 422,
      data: { fields: { "downloadUrls.abc": [expect.any(String)] } },
    });
    expect((await deliver(o.orderNumber, { downloadUrls: [1, 2] })).status).toBe(422);
    expect(lineRows(o.id).every((line) => line.videoDownloadUrl === null && line.status === "未対応")).toBe(
      true,
    );
    expect(orderRow(o.id)?.status).toBe("未対応");
  });

  it("answers 409 for an unpaid order and 404 for an unknown one", async () => {
    const { order: o, lines, email } = order({ paymentStatus: "awaiting" });
    expect(await deliver(o.orderNumber, { downloadUrls: urlsFor(lines) })).toMatchObject({
      status: 409,
      data: { message: "この注文はお支払いが確認できていないため、納品できません。" },
    });
    expect(mailsTo(email)).toHaveLength(0);
    expect((await deliver("99999998", { downloadUrls: {} })).status).toBe(404);
  });

  it("attack: a line of another order named in downloadUrls is not delivered through this one", async () => {
    const target = order({ lines: 1 });
    const other = order({ lines: 1 });
    const answer = await deliver(target.order.orderNumber, {
      downloadUrls: { ...urlsFor(target.lines), ...urlsFor(other.lines) },
    });
    expect(answer.status).toBe(200);
    expect(lineRows(other.order.id)[0]).toMatchObject({ status: "未対応", videoDownloadUrl: null });
    expect(orderRow(other.order.id)?.status).toBe("未対応");
    expect(mailsTo(other.email)).toHaveLength(0);
    // Nor does another order's line stand in for one of this order's.
    const third = order({ lines: 1 });
    expect((await deliver(third.order.orderNumber, { downloadUrls: urlsFor(other.lines) })).status).toBe(422);
  });

  it("attack: a read-only token and a visitor deliver nothing (403, 401)", async () => {
    const { order: o, lines, email } = order();
    expect((await deliver(o.orderNumber, { downloadUrls: urlsFor(lines) }, reader.token)).status).toBe(403);
    const anonymous = await apiCall(deliverRoute, "POST", `/api/orders/${o.orderNumber}/deliver`, {
      json: { downloadUrls: urlsFor(lines) },
      params: { orderNumber: o.orderNumber },
    });
    expect(anonymous).toMatchObject({ status: 401, data: { error: "Unauthorized" } });
    expect(orderRow(o.id)?.status).toBe("未対応");
    expect(mailsTo(email)).toHaveLength(0);
    expect((await apiCall(deliverRoute, "GET", `/api/orders/${o.orderNumber}/deliver`)).status).toBe(405);
  });

  it("says customerEmailSent false when the mail server refuses the mail: delivered, and the outbox retries", async () => {
    const { order: o, lines, email } = order();
    const port = smtp.port;
    await smtp.close();
    try {
      const answer = await deliver(o.orderNumber, { downloadUrls: urlsFor(lines) });
      expect(answer).toMatchObject({
        status: 200,
        data: { customerEmailSent: false, message: expect.stringContaining("メール送信に失敗しました") },
      });
      expect(orderRow(o.id)?.status).toBe("納品済み");
    } finally {
      smtp = await startSmtpServer(port, smtp.received);
    }
    expect(mailsTo(email)).toHaveLength(0);
    // Kept in the outbox for the next try.
    expect(db().select().from(mailOutbox).where(eq(mailOutbox.to, email)).get()?.status).toBe("pending");
  });
});
