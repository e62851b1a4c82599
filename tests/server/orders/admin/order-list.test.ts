import Database from "better-sqlite3";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createContest } from "~/server/catalog/contests.server";
import { db } from "~/server/db/client.server";
import { contests, downloadPages, orderLines, orders, refunds, type OrderStatus } from "~/server/db/schema";
import type { RefundStatus } from "~/lib/rules/refunds";
import { completeOrder } from "~/server/delivery/order-delivery.server";
import {
  ORDER_GROUPS_PAGE_SIZE,
  listOrderGroups,
  orderContestFilter,
  orderListContests,
  orderListCounts,
  type OrderContestFilter,
} from "~/server/orders/admin/order-list.server";
import { DOWNLOAD_PAGE_EXTENSION_DAYS } from "~/server/orders/admin/order-list-actions.server";
import { callRoute } from "../../../helpers/route";
import { adminCookie, formRequest } from "../../../helpers/shop";

const ordersRoute = () => import("~/routes/admin/orders");

let admin = "";
beforeAll(async () => {
  admin = await adminCookie();
});

let n = 0;
const start = Date.parse("2026-03-01T00:00:00Z");

/** An order of a contest with one line per given line status; each order a minute newer. */
function order(
  contestId: number | null,
  status: OrderStatus = "未対応",
  lineStatuses: OrderStatus[] = [status],
  email = `list${n + 1}@example.jp`,
) {
  n++;
  const orderNumber = String(30_000_000 + n);
  const row = db()
    .insert(orders)
    .values({
      orderNumber,
      checkoutId: `lc${n}`,
      paymentIntentId: `lpi${n}`,
      contestId,
      contestName: "一覧テスト大会",
      customerEmail: email,
      customerName: "一覧 花子",
      totalAmount: 3000 * lineStatuses.length,
      lineCount: lineStatuses.length,
      status,
      createdAt: new Date(start + n * 60_000),
    })
    .returning()
    .get();
  lineStatuses.forEach((lineStatus, i) =>
    db()
      .insert(orderLines)
      .values({
        orderId: row.id,
        lineNumber: `${orderNumber}-${i + 1}`,
        contestName: "一覧テスト大会",
        category: "A部門",
        athleteNumber: i + 1,
        athleteName: `選手${i + 1}`,
        style: "縦",
        orientation: "vertical",
        price: 3000,
        status: lineStatus,
      })
      .run(),
  );
  return row;
}

function contest(name: string): Extract<OrderContestFilter, { kind: "contest" }> {
  return { kind: "contest", id: createContest(name), name };
}

const ids = (result: ReturnType<typeof listOrderGroups>) => result.groups.map((group) => group.id);

async function loadOrders(query: string, cookie = admin) {
  const { loader } = await ordersRoute();
  return callRoute(
    loader,
    new Request(`http://shop.test/admin/orders${query}`, { headers: cookie ? { Cookie: cookie } : {} }),
  );
}

type LoaderData = {
  contest: OrderContestFilter;
  contestParam: string;
  counts: { pending: number; handled: number; awaiting: number; linesWithoutFile: number };
  contestOptions: { contests: { id: number; name: string }[]; deleted: boolean };
  total: number;
  page: number;
  pages: number;
  groups: { id: number }[];
};

describe("order list by contest", () => {
  // Two contests whose orders interleave in time, a contest without orders, one to be deleted.
  let spring: ReturnType<typeof contest>;
  let autumn: ReturnType<typeof contest>;
  let quiet: ReturnType<typeof contest>;
  let gone: ReturnType<typeof contest>;
  let made: Record<
    | "springPending"
    | "autumnPending"
    | "springHalf"
    | "springLegacy"
    | "springDelivered"
    | "springDone"
    | "autumnDelivered"
    | "goneOrder",
    ReturnType<typeof order>
  >;
  beforeAll(() => {
    spring = contest("春の発表会");
    autumn = contest("秋の発表会");
    quiet = contest("注文のない大会");
    gone = contest("削除予定の大会");
    made = {
      springPending: order(spring.id, "未対応", ["未対応", "未対応"], "spring@example.jp"),
      autumnPending: order(autumn.id, "未対応", ["未対応"], "autumn@example.jp"),
      // A pending order one of whose lines already has its file (as a batch delivery leaves it).
      springHalf: order(spring.id, "未対応", ["納品済み", "未対応"]),
      springLegacy: order(spring.id, "completed", ["未対応"]),
      springDelivered: order(spring.id, "納品済み", ["納品済み"]),
      springDone: order(spring.id, "対応済み", ["対応済み"]),
      autumnDelivered: order(autumn.id, "納品済み", ["納品済み", "納品済み"]),
      goneOrder: order(gone.id, "未対応", ["未対応", "未対応", "未対応"]),
    };
    db().delete(contests).where(eq(contests.id, gone.id)).run();
  });
  const all: OrderContestFilter = { kind: "all" };
  const deleted: OrderContestFilter = { kind: "deleted" };

  it("lists only the selected contest's orders, in the tab, newest first, and combines with search", () => {
    expect(ids(listOrderGroups({ tab: "pending", q: "", page: 1, contest: spring }))).toEqual([
      made.springLegacy.id,
      made.springHalf.id,
      made.springPending.id,
    ]);
    expect(ids(listOrderGroups({ tab: "handled", q: "", page: 1, contest: spring }))).toEqual([
      made.springDone.id,
      made.springDelivered.id,
    ]);
    expect(ids(listOrderGroups({ tab: "pending", q: "", page: 1, contest: autumn }))).toEqual([
      made.autumnPending.id,
    ]);
    expect(ids(listOrderGroups({ tab: "pending", q: "", page: 1, contest: quiet }))).toEqual([]);
    // Search within a contest: an address of the other contest finds nothing here.
    expect(ids(listOrderGroups({ tab: "pending", q: "autumn@", page: 1, contest: spring }))).toEqual([]);
    expect(ids(listOrderGroups({ tab: "pending", q: "spring@", page: 1, contest: spring }))).toEqual([
      made.springPending.id,
    ]);
    // Every contest, as before, and no filter at all is every contest.
    const everyPending = ids(listOrderGroups({ tab: "pending", q: "", page: 1, contest: all }));
    expect(everyPending).toEqual(ids(listOrderGroups({ tab: "pending", q: "", page: 1 })));
    expect(everyPending).toEqual(
      expect.arrayContaining([made.springPending.id, made.autumnPending.id, made.goneOrder.id]),
    );
  });

  it("gathers the orders of deleted contests, and offers them only while there are some", () => {
    expect(ids(listOrderGroups({ tab: "pending", q: "", page: 1, contest: deleted }))).toEqual([
      made.goneOrder.id,
    ]);
    const options = orderListContests(all);
    expect(options.deleted).toBe(true);
    // Contests with orders, newest contest first; none without orders, none deleted.
    expect(options.contests.map((c) => c.id)).toEqual(expect.arrayContaining([autumn.id, spring.id]));
    const ours = options.contests.filter((c) => [spring.id, autumn.id, quiet.id, gone.id].includes(c.id));
    expect(ours).toEqual([
      { id: autumn.id, name: "秋の発表会" },
      { id: spring.id, name: "春の発表会" },
    ]);
    // A contest without orders, named in the URL (a link from its editor), is offered as selected.
    expect(orderListContests(quiet).contests[0]).toEqual({ id: quiet.id, name: "注文のない大会" });
  });

  it("counts 未対応 and 対応済み orders and the pending orders' lines without a file, per contest", () => {
    expect(orderListCounts(spring)).toEqual({ pending: 3, handled: 2, awaiting: 0, linesWithoutFile: 4 });
    expect(orderListCounts(autumn)).toEqual({ pending: 1, handled: 1, awaiting: 0, linesWithoutFile: 1 });
    expect(orderListCounts(quiet)).toEqual({ pending: 0, handled: 0, awaiting: 0, linesWithoutFile: 0 });
    expect(orderListCounts(deleted)).toEqual({ pending: 1, handled: 0, awaiting: 0, linesWithoutFile: 3 });
    const every = orderListCounts(all);
    expect(every.pending).toBe(listOrderGroups({ tab: "pending", q: "", page: 1 }).total);
    expect(every.handled).toBe(listOrderGroups({ tab: "handled", q: "", page: 1 }).total);
    expect(every.linesWithoutFile).toBeGreaterThanOrEqual(8);
  });

  it("counts no line marked お断り or refunded as without a file: a named line, every line of an order refunded whole, not a failed refund", () => {
    const shop = contest("返金のある大会");
    const named = order(shop.id, "未対応", ["未対応", "未対応", "未対応"]);
    const [refusedLine, refundedLine] = db()
      .select()
      .from(orderLines)
      .where(eq(orderLines.orderId, named.id))
      .orderBy(orderLines.id)
      .all();
    db().update(orderLines).set({ refused: true }).where(eq(orderLines.id, refusedLine!.id)).run();
    const refundOf = (
      orderId: number,
      lineIds: number[],
      amount: number,
      status: RefundStatus = "succeeded",
    ) =>
      db()
        .insert(refunds)
        .values({
          orderId,
          paymentIntentId: `rf${++n}`,
          lineIds,
          amount,
          reason: "返金",
          requestKey: `rk${n}`,
          status,
        })
        .run();
    refundOf(named.id, [refundedLine!.id], 3000);
    const whole = order(shop.id, "未対応", ["未対応", "未対応"]);
    refundOf(whole.id, [], 6000, "processing");
    const failed = order(shop.id, "未対応", ["未対応"]);
    refundOf(failed.id, [], 3000, "failed");
    expect(orderListCounts(shop)).toEqual({ pending: 3, handled: 0, awaiting: 0, linesWithoutFile: 2 });
    const lines = listOrderGroups({ tab: "pending", q: "", page: 1, contest: shop }).groups.flatMap((group) =>
      group.lines.map((line) => line.withoutVideo),
    );
    expect(lines).toEqual([null, "返金", "返金", "お断り", "返金", null]);
  });

  it("completing an order moves it between the counts", () => {
    const extra = order(autumn.id, "未対応", ["未対応", "未対応"]);
    expect(orderListCounts(autumn)).toEqual({ pending: 2, handled: 1, awaiting: 0, linesWithoutFile: 3 });
    expect(completeOrder(extra.id)).toBe(true);
    expect(orderListCounts(autumn)).toEqual({ pending: 1, handled: 2, awaiting: 0, linesWithoutFile: 1 });
  });

  it("pages within the selected contest", () => {
    const busy = contest("大人数の発表会");
    const busyOrders = Array.from({ length: ORDER_GROUPS_PAGE_SIZE + 5 }, (_, i) => {
      // Another contest's order between each, so paging must not count them.
      order(spring.id);
      return order(busy.id, i % 5 === 0 ? "completed" : "未対応");
    });
    const newestFirst = busyOrders.map((o) => o.id).reverse();
    const first = listOrderGroups({ tab: "pending", q: "", page: 1, contest: busy });
    const second = listOrderGroups({ tab: "pending", q: "", page: 2, contest: busy });
    expect(first.total).toBe(ORDER_GROUPS_PAGE_SIZE + 5);
    expect(first.pages).toBe(2);
    expect(ids(first)).toEqual(newestFirst.slice(0, ORDER_GROUPS_PAGE_SIZE));
    expect(ids(second)).toEqual(newestFirst.slice(ORDER_GROUPS_PAGE_SIZE));
    expect(listOrderGroups({ tab: "pending", q: "", page: 3, contest: busy }).groups).toEqual([]);
  });

  it("reads the contest parameter: an id, deleted, or every contest for anything else", () => {
    expect(orderContestFilter(String(spring.id))).toEqual(spring);
    expect(orderContestFilter("deleted")).toEqual(deleted);
    for (const bad of [
      null,
      "",
      "0",
      "-1",
      "1e3",
      " 1",
      "1.0",
      "abc",
      "99999999",
      String(gone.id),
      "9".repeat(30),
    ])
      expect(orderContestFilter(bad)).toEqual(all);
  });

  describe("through the route", () => {
    it("filters and counts the selected contest, within the tab", async () => {
      const result = await loadOrders(`?contest=${spring.id}&tab=handled`);
      expect(result.status).toBe(200);
      const data = result.data as LoaderData;
      expect(data.contest).toEqual(spring);
      expect(data.contestParam).toBe(String(spring.id));
      expect(data.counts).toEqual(orderListCounts(spring));
      expect(data.groups.map((g) => g.id)).toEqual([made.springDone.id, made.springDelivered.id]);
    });

    it("pages with the filter", async () => {
      const busy = contest("ページ送りの発表会");
      const busyOrders = Array.from({ length: ORDER_GROUPS_PAGE_SIZE + 1 }, () => order(busy.id));
      const data = (await loadOrders(`?contest=${busy.id}&page=2`)).data as LoaderData;
      expect(data.page).toBe(2);
      expect(data.pages).toBe(2);
      expect(data.total).toBe(ORDER_GROUPS_PAGE_SIZE + 1);
      expect(data.groups.map((g) => g.id)).toEqual([busyOrders[0]!.id]);
    });

    it("falls back to every contest for a malformed or unknown contest, without an error", async () => {
      const every = (await loadOrders("")).data as LoaderData;
      for (const bad of [
        "abc",
        "0",
        "-3",
        "1e3",
        "99999999",
        String(gone.id),
        "%E5%A4%A7%E4%BC%9A",
        "1.5",
        "",
      ]) {
        const result = await loadOrders(`?contest=${bad}`);
        expect(result.status, bad).toBe(200);
        const data = result.data as LoaderData;
        expect(data.contest, bad).toEqual(all);
        expect(data.contestParam, bad).toBe("");
        expect(data.counts, bad).toEqual(every.counts);
        expect(data.total, bad).toBe(every.total);
      }
      const gathered = (await loadOrders("?contest=deleted")).data as LoaderData;
      expect(gathered.groups.map((g) => g.id)).toEqual([made.goneOrder.id]);
      expect(gathered.contestOptions.deleted).toBe(true);
    });

    it("is for admins only", async () => {
      const result = await loadOrders(`?contest=${spring.id}`, "");
      expect(result.status).toBe(302);
      expect(result.location).toBe("/admin-login");
    });
  });
});

// The list's summary is kept in memory until an order or a line is written, by anyone.
describe("the order list's summary kept in memory", () => {
  const all: OrderContestFilter = { kind: "all" };
  const other = () => new Database(process.env.DATABASE_PATH ?? "");

  it("reads the counts once while nothing is written, and again after any write to an order or a line", () => {
    const kept = contest("記憶する大会");
    const first = order(kept.id, "未対応", ["未対応", "未対応"]);
    const counts = orderListCounts(kept);
    expect(counts).toEqual({ pending: 1, handled: 0, awaiting: 0, linesWithoutFile: 2 });
    // Another tab, page or search of the same contest: the same counts, not counted again.
    listOrderGroups({ tab: "handled", q: "", page: 2, contest: kept });
    expect(orderListCounts(kept)).toBe(counts);

    // A line delivered by another connection (a script, another process on the same file).
    const connection = other();
    connection
      .prepare("update order_lines set status = '納品済み' where order_id = ? and line_number like '%-1'")
      .run(first.id);
    expect(orderListCounts(kept)).toEqual({ pending: 1, handled: 0, awaiting: 0, linesWithoutFile: 1 });
    connection.prepare("update orders set status = '納品済み' where id = ?").run(first.id);
    expect(orderListCounts(kept)).toEqual({ pending: 0, handled: 1, awaiting: 0, linesWithoutFile: 0 });
    connection.prepare("delete from order_lines where order_id = ?").run(first.id);
    connection.prepare("delete from orders where id = ?").run(first.id);
    connection.close();
    expect(orderListCounts(kept)).toEqual({ pending: 0, handled: 0, awaiting: 0, linesWithoutFile: 0 });
  });

  it("keeps a tab's total but counts a search's each time, and reads the orders shown afresh", () => {
    const kept = contest("合計の大会");
    order(kept.id, "未対応", ["未対応"], "total-a@example.jp");
    const before = listOrderGroups({ tab: "pending", q: "", page: 1, contest: kept });
    expect(before.total).toBe(1);
    const connection = other();
    const added = order(kept.id, "未対応", ["未対応"], "total-b@example.jp");
    connection.prepare("update orders set customer_name = '別の接続 花子' where id = ?").run(added.id);
    connection.close();
    const after = listOrderGroups({ tab: "pending", q: "", page: 1, contest: kept });
    expect(after.total).toBe(2);
    expect(after.groups[0]?.customerName).toBe("別の接続 花子");
    expect(listOrderGroups({ tab: "pending", q: "total-b@", page: 1, contest: kept }).total).toBe(1);
  });

  it("offers a contest's new name and a contest's first order in the contest select", () => {
    const renamed = contest("改名前の大会");
    expect(orderListContests(all).contests.some((c) => c.id === renamed.id)).toBe(false);
    order(renamed.id);
    expect(orderListContests(all).contests).toContainEqual({ id: renamed.id, name: "改名前の大会" });
    // A contest write changes the catalogue's count, not the orders': the name is still fresh.
    db().update(contests).set({ name: "改名後の大会" }).where(eq(contests.id, renamed.id)).run();
    expect(orderListContests(all).contests).toContainEqual({ id: renamed.id, name: "改名後の大会" });
  });
});

describe("the order list's buttons, each posting its intent to the list's action", () => {
  const post = async (fields: [string, string][]) => {
    const { action } = await ordersRoute();
    return callRoute(action, formRequest("/admin/orders?tab=handled&page=1", fields, admin));
  };
  const orderNow = (id: number) => db().select().from(orders).where(eq(orders.id, id)).get()!;
  const linesOf = (id: number) => db().select().from(orderLines).where(eq(orderLines.orderId, id)).all();

  it("完了 closes an open order and comes back to the same list, at that order", async () => {
    const open = order(null);
    const done = await post([
      ["orderId", String(open.id)],
      ["intent", "complete"],
    ]);
    expect(done).toMatchObject({
      status: 303,
      location: `/admin/orders?tab=handled&page=1#order-${open.id}`,
    });
    expect(orderNow(open.id).status).toBe("対応済み");
  });

  it("期限を延長 adds DOWNLOAD_PAGE_EXTENSION_DAYS to the download page, the number its label shows", async () => {
    const delivered = order(null, "納品済み");
    const expiresAt = new Date(Date.now() + 30 * 86_400_000);
    db()
      .insert(downloadPages)
      .values({ id: `list-page-${delivered.id}`, orderId: delivered.id, expiresAt })
      .run();
    expect(
      (
        await post([
          ["orderId", String(delivered.id)],
          ["intent", "extend"],
        ])
      ).status,
    ).toBe(303);
    const page = db().select().from(downloadPages).where(eq(downloadPages.orderId, delivered.id)).get()!;
    expect(page.expiresAt.getTime() - expiresAt.getTime()).toBe(DOWNLOAD_PAGE_EXTENSION_DAYS * 86_400_000);
    expect(DOWNLOAD_PAGE_EXTENSION_DAYS).toBe(7);
    expect(((await loadOrders("?tab=handled")).data as { extensionDays: number }).extensionDays).toBe(7);
  });

  it("リセット names its line in the intent and comes back to that line; a bare reset-line or an unknown intent changes nothing", async () => {
    const delivered = order(null, "納品済み", ["納品済み", "納品済み"]);
    const [first, second] = linesOf(delivered.id);
    db()
      .update(orderLines)
      .set({ downloadStartedAt: new Date() })
      .where(eq(orderLines.orderId, delivered.id))
      .run();
    for (const intent of ["reset-line", "reset-line-", "delete", "__proto__"])
      expect(
        (
          await post([
            ["orderId", String(delivered.id)],
            ["intent", intent],
          ])
        ).status,
      ).toBe(303);
    expect(linesOf(delivered.id).every((line) => line.downloadStartedAt !== null)).toBe(true);
    const reset = await post([
      ["orderId", String(delivered.id)],
      ["intent", `reset-line-${second!.id}`],
    ]);
    expect(reset.location).toBe(`/admin/orders?tab=handled&page=1#line-${second!.id}`);
    const after = linesOf(delivered.id);
    expect(after.find((line) => line.id === first!.id)!.downloadStartedAt).not.toBeNull();
    expect(after.find((line) => line.id === second!.id)!.downloadStartedAt).toBeNull();
  });

  it("a post without a known order is sent back to the list, nothing done", async () => {
    const open = order(null);
    for (const orderId of ["", "0", "abc"])
      expect(
        await post([
          ["orderId", orderId],
          ["intent", "complete"],
        ]),
      ).toMatchObject({ status: 303 });
    expect(orderNow(open.id).status).toBe("未対応");
  });
});
