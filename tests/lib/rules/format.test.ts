import { describe, expect, it } from "vitest";
import { formatDate, formatDateTime, formatYen, formatYenShort, formatYenSign } from "~/lib/rules/format";
import { contestSlug, slugKey } from "~/lib/rules/slug";

describe("formatting", () => {
  it("shows yen tax-included with separators", () => {
    expect(formatYen(12345)).toBe("12,345円（税込）");
    expect(formatYenSign(3500)).toBe("¥3,500");
  });

  it("groups whole yen exactly as Intl's ja-JP format does, and leaves the rest to Intl", () => {
    const intl = new Intl.NumberFormat("ja-JP");
    const amounts = [0, 5, 12, 999, 1000, 4000, 12345, 100000, 999999, 1234567, -1, -1000, -987654321];
    for (let i = 0; i < 200; i++) amounts.push(Math.floor(Math.random() * 10 ** (1 + (i % 12))));
    amounts.push(Number.MAX_SAFE_INTEGER, 12.5, 1e21);
    for (const amount of amounts) expect(formatYenShort(amount)).toBe(`${intl.format(amount)}円`);
  });

  it("shows dates in Tokyo time", () => {
    // 2025-06-30T15:30Z is 2025-07-01 00:30 in Tokyo.
    const instant = Date.UTC(2025, 5, 30, 15, 30);
    expect(formatDate(instant)).toBe("2025/07/01");
    expect(formatDateTime(instant)).toBe("2025/07/01 00:30");
  });
});

describe("contest slug", () => {
  it("drops dots and whitespace, lower-cases and drops other non-word characters", () => {
    expect(contestSlug("Spring Dance. Cup 2025!")).toBe("springdancecup2025");
    expect(contestSlug("第12回 桜ヶ丘ダンス（決勝）")).toBe("第12回桜ヶ丘ダンス決勝");
  });

  it("ignores hyphens when matching", () => {
    expect(slugKey("kids-dance-2025")).toBe(slugKey("Kids Dance 2025"));
  });
});
