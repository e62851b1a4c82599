import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { setClock } from "~/server/core/clock.server";
import { db } from "~/server/db/client.server";
import { downloadPages, orderLines, orders } from "~/server/db/schema";
import { claimDownload, downloadPage } from "~/server/orders/customer/downloads.server";
import { completeOrder, deliverOrder } from "~/server/delivery/order-delivery.server";
import { baseOrderNumber } from "~/server/orders/orders.server";
import { listOrderGroups } from "~/server/orders/admin/order-list.server";
import { smtpServerForThisFile } from "../../helpers/smtp-per-file";
import { callRoute } from "../../helpers/route";
import { loader as downloadFileLoader } from "~/routes/storefront/download-file";
import { loader as downloadPageLoader } from "~/routes/storefront/download-page";
import { loader as contactLoader } from "~/routes/storefront/contact";

const smtp = smtpServerForThisFile();
let n = 0;
function order(email = `d${++n}@example.jp`) {
  const orderNumber = String(20_000_000 + ++n);
  const row = db()
    .insert(orders)
    .values({
      orderNumber,
      checkoutId: `dc${n}`,
      paymentIntentId: `dpi${n}`,
      contestName: "納品テスト大会",
      customerEmail: email,
      customerName: "納品 花子",
      totalAmount: 7500,
      lineCount: 2,
    })
    .returning()
    .get();
  const lines = db()
    .insert(orderLines)
    .values([
      {
        orderId: row.id,
        lineNumber: `${orderNumber}-1`,
        contestName: "納品テスト大会",
        category: "A",
        athleteNumber: 1,
        athleteName: "選手1",
        style: "縦",
        orientation: "vertical" as const,
        price: 3000,
      },
      {
        orderId: row.id,
        lineNumber: `${orderNumber}-2`,
        contestName: "納品テスト大会",
        category: "A",
        athleteNumber: 2,
        athleteName: "選手2",
        style: "横",
        orientation: "horizontal" as const,
        price: 4500,
      },
    ])
    .returning()
    .all();
  return { order: row, lines, email };
}

describe("delivery", () => {
  it("refuses 納品 unless every line has a URL, and saves nothing then", async () => {
    const { order: o, lines } = order();
    const result = await deliverOrder(o.id, new Map([[lines[0]!.id, "https://videos.example.jp/1.mp4"]]));
    expect(result).toEqual({
      ok: false,
      status: 400,
      message: "すべての動画のダウンロードURLを入力してください。",
    });
    expect(
      db()
        .select()
        .from(orderLines)
        .where(eq(orderLines.orderId, o.id))
        .all()
        .every((l) => l.videoDownloadUrl === null),
    ).toBe(true);
    expect(await deliverOrder(o.id, new Map(lines.map((l) => [l.id, "javascript:alert(1)"])))).toMatchObject({
      ok: false,
      status: 400,
    });
  });

  it("sends one delivery mail however many 納品 arrive at once, and moves the order to handled", async () => {
    const { order: o, lines, email } = order();
    const urls = new Map(lines.map((l) => [l.id, `https://videos.example.jp/${l.id}.mp4`]));
    const results = await Promise.all(Array.from({ length: 5 }, () => deliverOrder(o.id, urls)));
    expect(results.filter((r) => r.ok && r.mail === "sent")).toHaveLength(1);
    expect(results.filter((r) => r.ok && r.mail === "already-sent")).toHaveLength(4);
    await new Promise((r) => setTimeout(r, 100));
    const mails = smtp.received.filter((m) => m.to.includes(email));
    expect(mails).toHaveLength(1);
    const pageId = results[0]?.ok ? results[0].pageId : "";
    expect(pageId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(mails[0]?.text).toContain(`/download/${pageId}`);
    expect(listOrderGroups({ tab: "handled", q: o.orderNumber, page: 1 }).groups.map((g) => g.id)).toEqual([
      o.id,
    ]);
    expect(listOrderGroups({ tab: "pending", q: o.orderNumber, page: 1 }).groups).toHaveLength(0);
  });

  it("完了 moves a group to handled without mail; search finds by number, e-mail or name", async () => {
    const { order: o, email } = order();
    expect(listOrderGroups({ tab: "pending", q: email, page: 1 }).groups.map((g) => g.id)).toEqual([o.id]);
    expect(
      listOrderGroups({ tab: "pending", q: `${o.orderNumber}-2`, page: 1 }).groups.map((g) => g.id),
    ).toEqual([o.id]);
    expect(completeOrder(o.id)).toBe(true);
    expect(listOrderGroups({ tab: "handled", q: email, page: 1 }).groups[0]?.status).toBe("対応済み");
    expect(baseOrderNumber("12345678-12")).toBe("12345678");
  });
});

describe("download page", () => {
  async function delivered() {
    const made = order();
    const result = await deliverOrder(
      made.order.id,
      new Map(made.lines.map((l) => [l.id, `https://videos.example.jp/${l.id}.mp4`])),
    );
    if (!result.ok) throw new Error("not delivered");
    return { ...made, pageId: result.pageId };
  }

  it("an unknown or malformed id finds nothing", () => {
    expect(downloadPage("AAAAAAAAAAAAAAAAAAAAAA")).toBeNull();
    expect(downloadPage("../../etc/passwd")).toBeNull();
    expect(claimDownload("AAAAAAAAAAAAAAAAAAAAAA", 1, "vertical")).toMatchObject({ ok: false, status: 404 });
  });

  it("another order's line cannot be fetched through a page", async () => {
    const first = await delivered();
    const second = await delivered();
    expect(claimDownload(first.pageId, second.lines[0]!.id, "vertical")).toMatchObject({
      ok: false,
      status: 404,
    });
  });

  it("counts a download once, lets it resume for 24 hours, then refuses; only the line's own format", async () => {
    const start = Date.UTC(2025, 8, 1, 12);
    setClock(() => start);
    const { pageId, lines } = await delivered();
    const vertical = lines[0]!;
    expect(claimDownload(pageId, vertical.id, "horizontal")).toMatchObject({ ok: false, status: 404 });
    expect(claimDownload(pageId, vertical.id, "vertical")).toEqual({
      ok: true,
      kind: "redirect",
      url: `https://videos.example.jp/${vertical.id}.mp4`,
    });
    setClock(() => start + 23 * 3600_000);
    expect(claimDownload(pageId, vertical.id, "vertical")).toMatchObject({ ok: true });
    setClock(() => start + 24 * 3600_000);
    expect(claimDownload(pageId, vertical.id, "vertical")).toMatchObject({ ok: false, status: 410 });
    expect(downloadPage(pageId)?.lines[0]).toMatchObject({ downloaded: true });
  });

  it("after the expiry the page says so and nothing can be fetched", async () => {
    const start = Date.UTC(2025, 9, 1);
    setClock(() => start);
    const { pageId, lines } = await delivered();
    const page = db().select().from(downloadPages).where(eq(downloadPages.id, pageId)).get();
    expect(page?.expiresAt.getTime()).toBe(start + 30 * 86_400_000);
    setClock(() => start + 30 * 86_400_000);
    expect(downloadPage(pageId)).toMatchObject({ expired: true });
    expect(claimDownload(pageId, lines[1]!.id, "horizontal")).toMatchObject({ ok: false, status: 410 });
  });

  it("a download started just before the expiry may be resumed only until the page expires, and an expired page promises nothing", async () => {
    const start = Date.UTC(2025, 10, 1);
    setClock(() => start);
    const { pageId, lines } = await delivered();
    const expiresAt = start + 30 * 86_400_000;
    setClock(() => expiresAt - 3600_000);
    expect(claimDownload(pageId, lines[0]!.id, "vertical")).toMatchObject({ ok: true });
    expect(downloadPage(pageId)?.lines[0]?.resumableUntil?.getTime()).toBe(expiresAt);
    setClock(() => expiresAt + 60_000);
    expect(downloadPage(pageId)?.lines[0]).toMatchObject({ resumableUntil: null });
  });

  it("a refused download shows a browser the download page (410) saying why, with お問い合わせ for its order; a program keeps the short 410", async () => {
    const start = Date.UTC(2025, 11, 1, 12);
    setClock(() => start);
    const { pageId, lines, order: made } = await delivered();
    const line = lines[0]!;
    const file = (accept: string) =>
      callRoute(
        downloadFileLoader,
        new Request(`http://shop.test/download/${pageId}/${line.id}/vertical`, {
          headers: { Accept: accept },
        }),
        { id: pageId, lineId: String(line.id), format: "vertical" },
      );
    const browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
    const page = (query: string) =>
      callRoute(downloadPageLoader, new Request(`http://shop.test/download/${pageId}${query}`), {
        id: pageId,
      });

    expect((await file(browser)).status).toBe(302);
    // Inside the 24 hours nothing is refused, and a made-up refusal shows the page as it is.
    expect(await page(`?refused=${line.id}`)).toMatchObject({ status: 200, data: { refusal: null } });

    setClock(() => start + 25 * 3600_000);
    const refused = await file(browser);
    expect(refused.status).toBe(303);
    expect(refused.location).toBe(`/download/${pageId}?refused=${line.id}`);
    const shown = await page(`?refused=${line.id}`);
    expect(shown.status).toBe(410);
    expect(shown.data).toMatchObject({
      page: { orderNumber: made.orderNumber },
      refusal: {
        reason: "downloaded",
        message: "この動画はダウンロード済みです。再度必要な場合はお問い合わせください。",
        line: { id: line.id, athleteName: "選手1" },
      },
    });
    const program = await file("*/*");
    expect(program.status).toBe(410);
    expect(program.data).toBe("この動画はダウンロード済みです。再度必要な場合はお問い合わせください。");

    // Bad queries: not a number, another order's line, a line not refused.
    for (const query of [
      "?refused=abc",
      "?refused=-1",
      `?refused=${line.id + 999}`,
      `?refused=${lines[1]!.id}`,
    ])
      expect(await page(query)).toMatchObject({ status: 200, data: { refusal: null } });

    // A wrong format stays a plain 404: the shop's pages never link to it.
    const wrong = await callRoute(
      downloadFileLoader,
      new Request(`http://shop.test/download/${pageId}/${line.id}/horizontal`, {
        headers: { Accept: browser },
      }),
      { id: pageId, lineId: String(line.id), format: "horizontal" },
    );
    expect(wrong.status).toBe(404);

    // The page expired: the same for both lines, the page's own expiry notice.
    setClock(() => start + 31 * 86_400_000);
    const other = await callRoute(
      downloadFileLoader,
      new Request(`http://shop.test/download/${pageId}/${lines[1]!.id}/horizontal`, {
        headers: { Accept: browser },
      }),
      { id: pageId, lineId: String(lines[1]!.id), format: "horizontal" },
    );
    expect(other.location).toBe(`/download/${pageId}?refused=${lines[1]!.id}`);
    expect(await page(`?refused=${lines[1]!.id}`)).toMatchObject({
      status: 410,
      data: { page: { expired: true }, refusal: { reason: "page-expired" } },
    });
  });

  it("お問い合わせ takes the order number from the download page's link, and only an order number", async () => {
    const contact = async (query: string) =>
      (await callRoute(contactLoader, new Request(`http://shop.test/contact${query}`))).data as {
        orderNumber: string | null;
      };
    expect((await contact("?order=20000123")).orderNumber).toBe("20000123");
    expect((await contact("")).orderNumber).toBeNull();
    for (const bad of ["?order=123", "?order=abcdefgh", "?order=%3Cscript%3E", "?order=200001234"])
      expect((await contact(bad)).orderNumber).toBeNull();
  });

  it("the download page names each line's athlete, so a family with two children can tell the videos apart", async () => {
    const { pageId } = await delivered();
    expect(downloadPage(pageId)?.lines.map((line) => line.athleteName)).toEqual(["選手1", "選手2"]);
  });
});

describe("after delivery, for the admin", () => {
  it("resets a line's download, extends the expiry, and resends the mail", async () => {
    const start = Date.UTC(2025, 10, 1);
    setClock(() => start);
    const { order: o, lines, email } = order();
    const result = await deliverOrder(
      o.id,
      new Map(lines.map((l) => [l.id, `https://videos.example.jp/${l.id}.mp4`])),
    );
    if (!result.ok) throw new Error("not delivered");
    claimDownload(result.pageId, lines[0]!.id, "vertical");
    setClock(() => start + 25 * 3600_000);
    expect(claimDownload(result.pageId, lines[0]!.id, "vertical")).toMatchObject({ ok: false, status: 410 });
    const { resetLineDownload, extendDownloadPage, resendDeliveryMail } =
      await import("~/server/delivery/order-delivery.server");
    expect(resetLineDownload(o.id, lines[0]!.id)).toBe(true);
    expect(resetLineDownload(o.id + 999, lines[0]!.id)).toBe(false);
    expect(claimDownload(result.pageId, lines[0]!.id, "vertical")).toMatchObject({ ok: true });
    expect(extendDownloadPage(o.id, 7)?.getTime()).toBe(start + 37 * 86_400_000);
    const before = smtp.received.filter((m) => m.to.includes(email)).length;
    expect(await resendDeliveryMail(o.id)).toBe("sent");
    await new Promise((r) => setTimeout(r, 50));
    expect(smtp.received.filter((m) => m.to.includes(email))).toHaveLength(before + 1);
  });
});
