/** Formatting shared by server and browser: yen tax-included, dates in Asia/Tokyo, sizes, intervals. */

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

/**
 * A signed amount where the sign matters (a net after refunds): −5,000円, not -5,000円 or
 * 5,000円 with the minus lost. The minus is U+2212, as a discount or a refund is written.
 */
export function formatSignedYen(amount: number): string {
  return amount < 0 ? `−${formatYenShort(-amount)}` : formatYenShort(amount);
}

/**
 * 12345 → "¥12,345": the 領収書's own way (its total as ¥12,345-, closed on both sides). Every
 * other screen, the back-office's included, writes 12,345円 as the parents' pages do
 * (eslint.config.js refuses this one elsewhere).
 */
export function formatYenSign(amount: number): string {
  return `¥${groupedYen(amount)}`;
}

const SIZE_UNITS = ["KB", "MB", "GB", "TB"] as const;

/**
 * A file's or a disk's size as people read it: decimal units (1 MB = 1,000,000 bytes), as a
 * phone, Finder and Windows' download dialogs say it, with one decimal under 100 and none from
 * there ("30.8 MB", "512 MB", "8.6 GB"), a trailing ".0" dropped ("20 MB"). Binary units labelled
 * MB made a 30,757,635-byte video 「約29 MB」 while the parent's phone said 30.8 MB.
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${Math.max(0, Math.round(bytes))} B`;
  let value = bytes / 1000;
  let unit = 0;
  // 999,960 bytes round to "1000 KB": they are written 1 MB instead.
  while (Number(value.toFixed(value < 100 ? 1 : 0)) >= 1000 && unit < SIZE_UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  const shown = value < 100 ? value.toFixed(1).replace(/\.0$/, "") : value.toFixed(0);
  return `${shown} ${SIZE_UNITS[unit]}`;
}

/**
 * A period given in minutes, as people say it: "1 日", "6 時間", "15 分", "90 分". The start-up log
 * and システム状態 say the snapshots' interval with it, so both say the same.
 */
export function formatInterval(minutes: number): string {
  if (minutes > 0 && minutes % 1440 === 0) return `${minutes / 1440} 日`;
  if (minutes > 0 && minutes % 60 === 0) return `${minutes / 60} 時間`;
  return `${minutes} 分`;
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
