/** Durations in milliseconds. */
export const SECOND_MS = 1000;
export const MINUTE_MS = 60 * SECOND_MS;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** Calendar days in Asia/Tokyo (UTC+9, no daylight saving), as the shop's reports count them. */
export const TOKYO_OFFSET_MS = 9 * HOUR_MS;

/** "2025-06-01" → the UTC instant when that day starts in Tokyo, or null for anything else. */
export function tokyoDayStart(day: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const ms = Date.UTC(year, month - 1, date);
  const check = new Date(ms);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== date)
    return null;
  return ms - TOKYO_OFFSET_MS;
}

/** The Tokyo calendar day of an instant, as "YYYY-MM-DD". */
export function tokyoDay(instant: number | Date): string {
  return new Date(new Date(instant).getTime() + TOKYO_OFFSET_MS).toISOString().slice(0, 10);
}
