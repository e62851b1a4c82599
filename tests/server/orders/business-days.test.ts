import { describe, expect, it } from "vitest";
import { addBusinessDays, isBusinessDay } from "~/server/orders/business-days.server";
import { formatDayWithWeekday } from "~/lib/rules/format";

/** A moment given in Tokyo time ("2027-04-28T18:00"), as the shop's customers live it. */
const tokyo = (local: string) => new Date(`${local}:00+09:00`);

describe("business days", () => {
  it("counts from the next business day: a Friday evening order with 3 days is due on Wednesday", () => {
    expect(addBusinessDays(tokyo("2026-06-05T19:30"), 3)).toBe("2026-06-10");
    // Paid on a business day: the next business day is day 1.
    expect(addBusinessDays(tokyo("2026-06-03T10:00"), 3)).toBe("2026-06-08");
  });

  it("skips a weekend, and an order paid on a weekend waits for Monday as day 1", () => {
    expect(addBusinessDays(tokyo("2026-06-06T12:00"), 1)).toBe("2026-06-08");
    expect(addBusinessDays(tokyo("2026-06-07T12:00"), 3)).toBe("2026-06-10");
  });

  it("skips Golden Week", () => {
    // 2027: 4/29 (Thu) 昭和の日, 5/1–5/2 weekend, 5/3–5/5 holidays.
    expect(addBusinessDays(tokyo("2027-04-28T15:00"), 3)).toBe("2027-05-07");
    expect(addBusinessDays(tokyo("2027-04-30T09:00"), 3)).toBe("2027-05-10");
    expect(isBusinessDay("2027-04-30")).toBe(true);
    expect(isBusinessDay("2027-05-04")).toBe(false);
  });

  it("closes for the year-end break 12/29–1/3, not only on 1/1", () => {
    for (const day of ["2026-12-29", "2026-12-30", "2026-12-31", "2027-01-01", "2027-01-02", "2027-01-03"])
      expect(isBusinessDay(day), day).toBe(false);
    expect(isBusinessDay("2026-12-28")).toBe(true);
    expect(isBusinessDay("2027-01-04")).toBe(true);
    expect(addBusinessDays(tokyo("2026-12-28T10:00"), 3)).toBe("2027-01-06");
    expect(addBusinessDays(tokyo("2026-12-30T10:00"), 3)).toBe("2027-01-06");
    // 2027-01-11 is 成人の日.
    expect(addBusinessDays(tokyo("2027-01-07T10:00"), 3)).toBe("2027-01-13");
  });

  it("with 0 days promises the day itself, or the next open day", () => {
    expect(addBusinessDays(tokyo("2026-06-03T10:00"), 0)).toBe("2026-06-03");
    expect(addBusinessDays(tokyo("2026-06-06T10:00"), 0)).toBe("2026-06-08");
    expect(addBusinessDays(tokyo("2026-12-30T10:00"), 0)).toBe("2027-01-04");
  });

  it("takes the day in Tokyo, not in UTC: 14:59 UTC is still the same Tokyo day, 15:00 the next", () => {
    // 2026-06-04 is a Thursday in Tokyo until 15:00 UTC.
    expect(addBusinessDays(new Date("2026-06-04T14:59:59Z"), 3)).toBe("2026-06-09");
    expect(addBusinessDays(new Date("2026-06-04T15:00:00Z"), 3)).toBe("2026-06-10");
  });

  it("formats a promised day with its weekday", () => {
    expect(formatDayWithWeekday("2027-05-07")).toBe("2027年5月7日（金）");
  });
});
