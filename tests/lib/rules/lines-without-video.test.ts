import { describe, expect, it } from "vitest";
import { lineWithoutVideo, nothingToDeliverReason } from "~/lib/rules/lines-without-video";
import { orderProgress } from "~/lib/rules/order-progress";
import { refundedLineIds, type RefundOfOrder } from "~/lib/rules/refunds";

const order = { totalAmount: 9000, lineIds: [11, 12, 13] };
const refund = (lineIds: number[], amount: number, status: RefundOfOrder["status"] = "succeeded") => ({
  lineIds,
  amount,
  status,
});

describe("which lines are refunded (refundedLineIds)", () => {
  it("names each line a counted refund names, asked for or done, and not a failed one", () => {
    expect([...refundedLineIds(order, [refund([12], 3000)])]).toEqual([12]);
    expect([...refundedLineIds(order, [refund([13], 3000, "requested")])]).toEqual([13]);
    expect([...refundedLineIds(order, [refund([11], 3000, "failed")])]).toEqual([]);
  });

  it("names every line once the counted refunds reach what was paid, a typed amount included", () => {
    expect([...refundedLineIds(order, [refund([], 9000)])]).toEqual([11, 12, 13]);
    expect([...refundedLineIds(order, [refund([11], 3000), refund([], 6000, "processing")])]).toEqual([
      11, 12, 13,
    ]);
    // A typed amount short of the whole names no line.
    expect([...refundedLineIds(order, [refund([], 8999)])]).toEqual([]);
    // No refund at all is never a whole refund, whatever the total.
    expect([...refundedLineIds({ totalAmount: 0, lineIds: [1] }, [])]).toEqual([]);
  });
});

describe("why a line gets no video (lineWithoutVideo)", () => {
  it("お断り first, then 返金, else it gets one", () => {
    const refunded = new Set([2, 3]);
    expect(lineWithoutVideo({ id: 1, refused: false }, refunded)).toBeNull();
    expect(lineWithoutVideo({ id: 2, refused: false }, refunded)).toBe("返金");
    expect(lineWithoutVideo({ id: 3, refused: true }, refunded)).toBe("お断り");
    expect(nothingToDeliverReason(["返金", "返金"])).toBe("全明細返金済み");
    expect(nothingToDeliverReason(["お断り"])).toBe("全明細お断り");
    expect(nothingToDeliverReason(["お断り", "返金"])).toBe("全明細が返金済みまたはお断り");
  });
});

describe("an order refunded whole, as the customer reads it (orderProgress)", () => {
  it("is 返金済み even once closed as 対応済み or delivered, so no download is promised", () => {
    const paid = { paymentStatus: "paid" as const };
    expect(orderProgress({ ...paid, status: "対応済み" }, 0)).toBe("返金済み");
    expect(orderProgress({ ...paid, status: "納品済み" }, 0)).toBe("返金済み");
    expect(orderProgress({ ...paid, status: "納品済み" }, 3000)).toBe("納品済み");
    expect(orderProgress({ ...paid, status: "未対応" }, 3000)).toBe("制作中");
  });
});
