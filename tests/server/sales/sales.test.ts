import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { csvLine, UTF8_BOM } from "~/lib/rules/csv";
import { tokyoDayStart } from "~/lib/rules/tokyo-date";
import { db } from "~/server/db/client.server";
import { orderLines, orders } from "~/server/db/schema";
import { SALES_CSV_HEADER, salesCsvRows } from "~/server/sales/sales-csv.server";
import { parseSalesFilter, salesReport } from "~/server/sales/sales.server";
import { salesOrder } from "../../helpers/sales-orders";

const order = salesOrder;

// Tokyo is UTC+9: 2025-06-01 00:00 JST is 2025-05-31 15:00 UTC.
order("春の大会", "2025-05-31T14:59:59.999Z", [1000]); // 2025-05-31 23:59:59 JST
order("春の大会", "2025-05-31T15:00:00.000Z", [2000, 500]); // 2025-06-01 00:00 JST
order("夏の大会", "2025-06-30T14:59:00.000Z", [4000]); // 2025-06-30 23:59 JST
order("夏の大会", "2025-06-30T15:00:00.000Z", [8000]); // 2025-07-01 00:00 JST

const filter = (contest: string | null, from: string | null, to: string | null) => ({ contest, from, to });

describe("sales totals", () => {
  it("sums everything with no filter", () => {
    expect(salesReport(filter(null, null, null))).toMatchObject({
      gross: 15500,
      refunds: 0,
      net: 15500,
      orderCount: 4,
      lineCount: 5,
    });
  });

  it("counts days in Tokyo time, inclusive at both ends", () => {
    // June in Tokyo: the 00:00 order of 6/1 and the 23:59 order of 6/30, not their neighbours.
    expect(salesReport(filter(null, "2025-06-01", "2025-06-30"))).toMatchObject({
      gross: 6500,
      orderCount: 2,
    });
    expect(salesReport(filter(null, "2025-05-31", "2025-05-31"))).toMatchObject({
      gross: 1000,
      orderCount: 1,
    });
    expect(salesReport(filter(null, "2025-07-01", null))).toMatchObject({ gross: 8000 });
    expect(salesReport(filter(null, null, "2025-05-31"))).toMatchObject({ gross: 1000 });
  });

  it("filters by exact contest name", () => {
    expect(salesReport(filter("夏の大会", null, null))).toMatchObject({ gross: 12000, orderCount: 2 });
    expect(salesReport(filter("夏", null, null))).toMatchObject({ gross: 0, orderCount: 0 });
  });

  it("gives a per-day series with empty days filled, and a per-contest breakdown", () => {
    const report = salesReport(filter(null, "2025-05-31", "2025-06-02"));
    expect(report.perDay).toEqual([
      { day: "2025-05-31", listGross: 1000, discounts: 0, gross: 1000, refunds: 0, net: 1000, orders: 1 },
      { day: "2025-06-01", listGross: 2500, discounts: 0, gross: 2500, refunds: 0, net: 2500, orders: 1 },
      { day: "2025-06-02", listGross: 0, discounts: 0, gross: 0, refunds: 0, net: 0, orders: 0 },
    ]);
    expect(report.perContest).toEqual([
      {
        contestName: "春の大会",
        listGross: 3500,
        discounts: 0,
        gross: 3500,
        refunds: 0,
        net: 3500,
        orders: 2,
      },
    ]);
  });

  it("ignores malformed dates instead of failing", () => {
    const parsed = parseSalesFilter(
      new URLSearchParams({ from: "2025-02-30", to: "yesterday", contest: "" }),
    );
    expect(parsed).toMatchObject({ from: null, to: null, contest: null, invalid: ["from", "to"] });
    expect(tokyoDayStart("2025-13-01")).toBeNull();
  });
});

describe("sales CSV", () => {
  it("has one row per order line of the filter", () => {
    const rows = [...salesCsvRows(filter("春の大会", null, null))];
    expect(rows).toHaveLength(3);
    expect(rows.map((r) => r[8])).toEqual(["1000", "2000", "500"]);
    expect(rows.every((r) => r.length === SALES_CSV_HEADER.length)).toBe(true);
    // 注文日時 as toLocaleString writes it in Tokyo: 2025-05-31 14:59:59.999 UTC is 23:59:59 there.
    expect(rows[0]![2]).toBe(
      new Date("2025-05-31T14:59:59.999Z").toLocaleString("ja-JP", { timeZone: "Asia/Tokyo" }),
    );
    expect(rows[0]![2]).toBe("2025/5/31 23:59:59");
  });

  it("quotes what needs quoting, defuses spreadsheet formulas, and starts with a BOM", () => {
    expect(csvLine(["a,b", 'say "hi"', "=SUM(A1)", "山田"])).toBe('"a,b","say ""hi""",\'=SUM(A1),山田\r\n');
    expect(new TextEncoder().encode(UTF8_BOM)).toEqual(new Uint8Array([0xef, 0xbb, 0xbf]));
  });

  it("values starting with full-width ＝＋－＠ are defused in the sales CSV like =+-@", () => {
    // What a customer can type into the name fields of an order, and an athlete name an admin imports.
    order("全角の大会", "2025-08-01T03:00:00.000Z", [1200]);
    const row = db().select().from(orders).where(eq(orders.contestName, "全角の大会")).get();
    db()
      .update(orders)
      .set({ customerName: '＝HYPERLINK("http://evil.example","x")' })
      .where(eq(orders.id, row!.id))
      .run();
    db()
      .update(orderLines)
      .set({ athleteName: "＠SUM(1+1)", category: "＋1", style: "－1" })
      .where(eq(orderLines.orderId, row!.id))
      .run();
    const [line] = [...salesCsvRows(filter("全角の大会", null, null))].map(csvLine);
    const fields = (line ?? "").trimEnd().split(",");
    expect(fields[4]).toBe("'＋1");
    expect(fields[6]).toBe("'＠SUM(1+1)");
    expect(fields[7]).toBe("'－1");
    expect(line).toContain(`"'＝HYPERLINK(""http://evil.example"",""x"")"`);
    // A plain negative number (a refund's 純売上) stays a number; anything more after a minus is defused.
    expect(csvLine(["-5000", "-1+1", "-5000)", "－5000"])).toBe("-5000,'-1+1,'-5000),'－5000\r\n");
    // Full-width characters later in a value stay as they are.
    expect(csvLine(["山田＝太郎", "Ａ＋"])).toBe("山田＝太郎,Ａ＋\r\n");
  });
});
