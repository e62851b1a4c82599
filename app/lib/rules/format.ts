/** Formatting shared by server and browser: yen tax-included, dates in Asia/Tokyo. */

/**
 * 12345 → "12,345". Whole yen (the only amounts the shop has) are grouped by a regular
 * expression: Intl's format was most of an order form's price labels' cost on the server (one
 * per athlete and style, `npm run bench:profile`). Anything else is Intl's.
 */
function groupedYen(amount: number): string {
  return Number.isSafeInteger(amount)
    ? String(amount).replace(/\B(?=(\d{3})+$)/g, ",")
    : amount.toLocaleString("ja-JP");
}

/** 12345 → "12,345円（税込）" */
export function formatYen(amount: number): string {
  return `${groupedYen(amount)}円（税込）`;
}

/** 12345 → "12,345円", where the tax note is said once nearby (a list of prices). */
export function formatYenShort(amount: number): string {
  return `${groupedYen(amount)}円`;
}

/** A payment's amount in its own currency: 12,345円 for yen, "1200 USD" for a stray payment in another. */
export function formatAmountIn(amount: number, currency: string): string {
  return currency.toLowerCase() === "jpy" ? formatYenShort(amount) : `${amount} ${currency.toUpperCase()}`;
}

/** 12345 → "¥12,345" */
export function formatYenSign(amount: number): string {
  return `¥${groupedYen(amount)}`;
}

const dateTime = new Intl.DateTimeFormat("ja-JP", {
  timeZone: "Asia/Tokyo",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
});

const dateOnly = new Intl.DateTimeFormat("ja-JP", {
  timeZone: "Asia/Tokyo",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

/** "2025/06/01 14:05" in Tokyo time. */
export function formatDateTime(value: Date | number): string {
  return dateTime.format(value);
}

/** "2025/06/01" in Tokyo time. */
export function formatDate(value: Date | number): string {
  return dateOnly.format(value);
}

const WEEKDAYS = ["日", "月", "火", "水", "木", "金", "土"] as const;

/** A Tokyo calendar day "2027-05-07" → "2027年5月7日（金）": a promised date, as a customer reads it. */
export function formatDayWithWeekday(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return `${date.getUTCFullYear()}年${date.getUTCMonth() + 1}月${date.getUTCDate()}日（${WEEKDAYS[date.getUTCDay()] ?? ""}）`;
}

const dateLong = new Intl.DateTimeFormat("ja-JP", {
  timeZone: "Asia/Tokyo",
  year: "numeric",
  month: "long",
  day: "numeric",
});

/** "2025年6月1日" in Tokyo time: the way a document (a 領収書) writes its dates. */
export function formatDateLong(value: Date | number): string {
  return dateLong.format(value);
}
