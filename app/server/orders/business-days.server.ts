import holidayJp from "@holiday-jp/holiday_jp";
import { DAY_MS, tokyoDay } from "~/lib/rules/tokyo-date";
import { env } from "../core/env.server";

/**
 * The shop's business days, for the delivery date promised on the order status page. Counted
 * in Tokyo calendar days. Closed: Saturdays, Sundays, Japan's public holidays (holiday_jp,
 * substitute holidays included) and the year-end break 12/29–1/3 (年末年始: the seller's hours
 * already exclude it, and holiday_jp knows only 1/1, so without this rule an order paid on
 * 12/28 would be promised for New Year's Eve).
 *
 * Day 1 is the first business day AFTER the Tokyo day of the moment: a day already begun is
 * never counted, whether the order came in at 9:00 or at 23:59, and an order paid on a closed
 * day waits for the next open one like any other. So a Friday evening order with N=3 is due on
 * Wednesday (Mon 1, Tue 2, Wed 3). N=0 means "the same day": the Tokyo day itself if open,
 * otherwise the first open day after it.
 */

/** Whether the shop works on a Tokyo calendar day ("YYYY-MM-DD"). */
export function isBusinessDay(day: string): boolean {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  if (weekday === 0 || weekday === 6) return false;
  const monthDay = day.slice(5);
  if (monthDay >= "12-29" || monthDay <= "01-03") return false;
  // holiday_jp reads a Date in the process's own time zone; the day string is unambiguous.
  return !holidayJp.isHoliday(day);
}

function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
}

/** The Tokyo calendar day ("YYYY-MM-DD") that is `count` business days after the moment. */
export function addBusinessDays(moment: Date | number, count: number): string {
  let day = tokyoDay(moment);
  if (count <= 0) {
    while (!isBusinessDay(day)) day = nextDay(day);
    return day;
  }
  for (let left = count; left > 0;) {
    day = nextDay(day);
    if (isBusinessDay(day)) left--;
  }
  return day;
}

/**
 * The day the videos are promised for (a Tokyo day, "2027-05-07"): DELIVERY_BUSINESS_DAYS business
 * days after the payment. Counted from the payment: a konbini order paid days later is made from then.
 */
export function promisedDeliveryDay(paidAt: Date): string {
  return addBusinessDays(paidAt, env().DELIVERY_BUSINESS_DAYS);
}
