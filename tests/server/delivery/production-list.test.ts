import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { productionList, productionTotals } from "~/server/delivery/production-list.server";
import { db } from "~/server/db/client.server";
import { athletes, contests, orderLines, orders, type OrderStatus } from "~/server/db/schema";
import { callRoute } from "../../helpers/route";
import { adminCookie, seedContest } from "../../helpers/shop";

type Shop = ReturnType<typeof seedContest>;
type Athlete = Shop["onSale"];

let n = 0;
/** A paid order of the contest: one line per item, all with the order's status. */
function order(
  shop: Shop,
  items: { athlete: Athlete; orientation: "vertical" | "horizontal"; declined?: boolean }[],
  options: { status?: OrderStatus; at?: Date; contestId?: number | null } = {},
) {
  const orderNumber = String(30_000_000 + ++n);
  const row = db()
    .insert(orders)
    .values({
      orderNumber,
      checkoutId: `pc${n}`,
      paymentIntentId: `ppi${n}`,
      contestId: options.contestId === undefined ? shop.contestId : options.contestId,
      contestName: shop.name,
      customerEmail: `p${n}@example.jp`,
      customerName: "制作 花子",
      totalAmount: 3000 * items.length,
      lineCount: items.length,
      status: options.status ?? "未対応",
      ...(options.at ? { createdAt: options.at } : {}),
    })
    .returning()
    .get();
  db()
    .insert(orderLines)
    .values(
      items.map((item, index) => ({
        orderId: row.id,
        lineNumber: `${orderNumber}-${index + 1}`,
        contestName: shop.name,
        category: item.athlete.category,
        athleteId: item.athlete.id,
        athleteNumber: item.athlete.athleteNumber,
        athleteName: item.athlete.name,
        style: item.orientation === "vertical" ? shop.vertical.name : shop.horizontal.name,
        orientation: item.orientation,
        price: 3000,
        status: options.status ?? "未対応",
        refused: item.declined ?? false,
      })),
    )
    .run();
  return row;
}

const summary = (rows: ReturnType<typeof productionList>) =>
  rows.map((r) => `${r.athleteNumber} ${r.athleteName} ${r.style} ×${r.lineCount} ${r.state}`);

describe("the 制作リスト", () => {
  it("gives one row per athlete × style, however many families ordered it, sorted by number (縦 before 横)", () => {
    const shop = seedContest();
    order(shop, [{ athlete: shop.free, orientation: "horizontal" }], {
      at: new Date("2026-05-02T01:00:00Z"),
    });
    order(shop, [
      { athlete: shop.onSale, orientation: "horizontal" },
      { athlete: shop.onSale, orientation: "vertical" },
    ]);
    order(shop, [{ athlete: shop.onSale, orientation: "vertical" }], {
      at: new Date("2026-05-01T01:00:00Z"),
    });
    order(shop, [{ athlete: shop.free, orientation: "vertical" }]);
    // Another contest's order for the same athlete never shows here.
    const other = seedContest();
    order(other, [{ athlete: other.onSale, orientation: "vertical" }]);

    const rows = productionList(shop.contestId);
    expect(summary(rows)).toEqual([
      "1 選手1 縦 ×2 未納品",
      "1 選手1 横 ×1 未納品",
      "4 選手4 縦 ×1 未納品",
      "4 選手4 横 ×1 未納品",
    ]);
    expect(rows[0]).toMatchObject({ category: "A部門", orientation: "vertical", deliveredCount: 0 });
    expect(rows[0]?.firstOrderedAt).toEqual(new Date("2026-05-01T01:00:00Z"));
    expect(rows[3]?.firstOrderedAt).toEqual(new Date("2026-05-02T01:00:00Z"));
    expect(productionTotals(rows)).toEqual({ rows: 4, lines: 5, open: 4 });
  });

  it("keeps a deleted athlete's lines, grouped by the number and name the lines kept", () => {
    const shop = seedContest();
    order(shop, [{ athlete: shop.onSale, orientation: "vertical" }]);
    order(shop, [{ athlete: shop.free, orientation: "vertical" }]);
    order(shop, [{ athlete: shop.free, orientation: "vertical" }]);
    db().delete(athletes).where(eq(athletes.id, shop.free.id)).run();
    db().delete(athletes).where(eq(athletes.id, shop.onSale.id)).run();
    const rows = productionList(shop.contestId);
    expect(summary(rows)).toEqual(["1 選手1 縦 ×1 未納品", "4 選手4 縦 ×2 未納品"]);
    expect(rows.map((r) => [r.athleteId, r.category])).toEqual([
      [null, "A部門"],
      [null, "B部門"],
    ]);
  });

  it("shows the athlete's current number, name and category where the athlete still exists", () => {
    const shop = seedContest();
    order(shop, [{ athlete: shop.onSale, orientation: "vertical" }]);
    db()
      .update(athletes)
      .set({ athleteNumber: 10, name: "新しい名前", category: "" })
      .where(eq(athletes.id, shop.onSale.id))
      .run();
    expect(productionList(shop.contestId).map((r) => [r.athleteNumber, r.athleteName, r.category])).toEqual([
      [10, "新しい名前", "未分類"],
    ]);
    expect(productionList(shop.contestId, { category: "未分類" })).toHaveLength(1);
    expect(productionList(shop.contestId, { category: "A部門" })).toHaveLength(0);
  });

  it("filters by category and by not yet delivered (未納品 and 一部納品)", () => {
    const shop = seedContest();
    order(shop, [{ athlete: shop.onSale, orientation: "vertical" }], { status: "納品済み" });
    order(shop, [{ athlete: shop.onSale, orientation: "horizontal" }], { status: "対応済み" });
    order(shop, [{ athlete: shop.onSale, orientation: "horizontal" }]);
    order(shop, [{ athlete: shop.unpriced, orientation: "vertical" }], { status: "納品済み" });
    order(shop, [{ athlete: shop.free, orientation: "vertical" }]);

    expect(summary(productionList(shop.contestId))).toEqual([
      "1 選手1 縦 ×1 納品済み",
      "1 選手1 横 ×2 一部納品",
      "2 選手2 縦 ×1 納品済み",
      "4 選手4 縦 ×1 未納品",
    ]);
    expect(summary(productionList(shop.contestId, { category: "B部門" }))).toEqual([
      "2 選手2 縦 ×1 納品済み",
      "4 選手4 縦 ×1 未納品",
    ]);
    expect(summary(productionList(shop.contestId, { openOnly: true }))).toEqual([
      "1 選手1 横 ×2 一部納品",
      "4 選手4 縦 ×1 未納品",
    ]);
    expect(summary(productionList(shop.contestId, { category: "A部門", openOnly: true }))).toEqual([
      "1 選手1 横 ×2 一部納品",
    ]);
    const partly = productionList(shop.contestId)[1];
    expect([partly?.deliveredCount, partly?.lineCount]).toEqual([1, 2]);
    expect(productionTotals(productionList(shop.contestId))).toEqual({ rows: 4, lines: 5, open: 2 });
  });

  it("flags 受注停止 athletes and lines marked お断り", () => {
    const shop = seedContest();
    order(shop, [{ athlete: shop.stopped, orientation: "vertical" }]);
    order(shop, [{ athlete: shop.onSale, orientation: "horizontal", declined: true }]);
    order(shop, [{ athlete: shop.onSale, orientation: "horizontal" }]);
    order(shop, [{ athlete: shop.onSale, orientation: "vertical" }]);
    const rows = productionList(shop.contestId);
    expect(rows.map((r) => [r.athleteNumber, r.orientation, r.stopped, r.declined])).toEqual([
      [1, "vertical", false, false],
      [1, "horizontal", false, true],
      [3, "vertical", true, false],
    ]);
  });

  it("ignores orders of no contest (a deleted contest) and answers an empty list for a contest without orders", () => {
    const shop = seedContest();
    order(shop, [{ athlete: shop.onSale, orientation: "vertical" }], { contestId: null });
    expect(productionList(shop.contestId)).toEqual([]);
  });
});

const get = (path: string, cookie: string) =>
  new Request(`http://shop.test${path}`, { headers: cookie ? { Cookie: cookie } : {} });
const page = () => import("~/routes/admin/contest/production");
const csv = () => import("~/routes/admin/contest/production-csv");

describe("the 制作リスト's routes", () => {
  it("send visitors and customers to the admin login, for the page and the CSV", async () => {
    const shop = seedContest();
    order(shop, [{ athlete: shop.onSale, orientation: "vertical" }]);
    const customer = await adminCookie({ isAdmin: false });
    for (const cookie of ["", customer]) {
      for (const [loader, path] of [
        [(await page()).loader, `/admin/contest/${shop.contestId}/production`],
        [(await csv()).loader, `/admin/contest/${shop.contestId}/production.csv`],
      ] as const) {
        const result = await callRoute(loader, get(path, cookie), { id: String(shop.contestId) });
        expect(result.status).toBe(302);
        expect(result.location).toBe("/admin-login");
      }
    }
  });

  it("render the filtered rows, fall back to every category for an unknown one, and 404 an unknown contest", async () => {
    const shop = seedContest();
    order(shop, [{ athlete: shop.onSale, orientation: "vertical" }]);
    order(shop, [{ athlete: shop.free, orientation: "vertical" }]);
    const cookie = await adminCookie();
    const { loader } = await page();
    const base = `/admin/contest/${shop.contestId}/production`;
    const params = { id: String(shop.contestId) };

    const filtered = await callRoute(loader, get(`${base}?category=B部門&open=1`, cookie), params);
    expect(filtered.status).toBe(200);
    const data = filtered.data as Awaited<ReturnType<typeof loader>>;
    expect(data.filter).toEqual({ category: "B部門", openOnly: true });
    expect(data.rows.map((r) => r.athleteName)).toEqual(["選手4"]);
    expect(data.categories).toEqual(["A部門", "B部門", "未分類"]);

    const unknown = await callRoute(
      loader,
      get(`${base}?category=${"x".repeat(500)}&open=yes`, cookie),
      params,
    );
    expect(unknown.status).toBe(200);
    const fallback = unknown.data as Awaited<ReturnType<typeof loader>>;
    expect([fallback.unknownCategory, fallback.filter, fallback.rows.length]).toEqual([
      true,
      { category: null, openOnly: false },
      2,
    ]);

    const missing = await callRoute(loader, get("/admin/contest/999999/production", cookie), {
      id: "999999",
    });
    expect(missing.status).toBe(404);
    const badId = await callRoute(loader, get("/admin/contest/abc/production", cookie), { id: "abc" });
    expect(badId.status).toBe(404);
  });

  it("download as CSV: BOM, the contest's label over the number, defused formulas, the page's filter", async () => {
    const shop = seedContest();
    db().update(contests).set({ bibNumberLabel: "演奏順" }).where(eq(contests.id, shop.contestId)).run();
    db().update(athletes).set({ name: "=cmd|' /C calc'!A0" }).where(eq(athletes.id, shop.onSale.id)).run();
    const evil = { ...shop.onSale, name: "=cmd|' /C calc'!A0" };
    order(shop, [{ athlete: evil, orientation: "vertical" }], {
      status: "納品済み",
      at: new Date("2026-05-01T15:30:00Z"),
    });
    order(shop, [{ athlete: shop.stopped, orientation: "horizontal", declined: true }]);
    const cookie = await adminCookie();
    const { loader } = await csv();
    const params = { id: String(shop.contestId) };
    const response = (await loader({
      request: get(`/admin/contest/${shop.contestId}/production.csv`, cookie),
      params,
      context: {},
    })) as Response;
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    const disposition = response.headers.get("Content-Disposition") ?? "";
    expect(disposition).toMatch(
      new RegExp(
        `^attachment; filename="production-${shop.contestId}-\\d{4}-\\d{2}-\\d{2}\\.csv"; filename\\*=UTF-8''`,
      ),
    );
    expect(decodeURIComponent(disposition.split("''")[1] ?? "")).toMatch(
      new RegExp(`^制作リスト_${shop.name}_\\d{4}-\\d{2}-\\d{2}\\.csv$`),
    );
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes.slice(3));
    expect(text.split("\r\n")).toEqual([
      "演奏順,選手名,部門,スタイル,向き,注文数,納品済み数,最初の注文日時,状態,注意",
      `1,'=cmd|' /C calc'!A0,A部門,${shop.vertical.name},縦,1,1,2026/05/02 00:30,納品済み,`,
      `3,選手3,A部門,${shop.horizontal.name},横,1,0,${text.split("\r\n")[2]?.split(",")[7]},未納品,受注停止・お断り`,
      "",
    ]);

    const open = (await loader({
      request: get(`/admin/contest/${shop.contestId}/production.csv?open=1`, cookie),
      params,
      context: {},
    })) as Response;
    const openText = await open.text();
    expect(openText).toContain("選手3");
    expect(openText).not.toContain("cmd");
  });
});
