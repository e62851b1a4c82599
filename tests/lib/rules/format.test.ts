import { describe, expect, it } from "vitest";
import {
  formatBytes,
  formatDate,
  formatDateTime,
  formatInterval,
  formatSignedYen,
  formatYen,
  formatYenShort,
  formatYenSign,
} from "~/lib/rules/format";
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

  it("writes a signed amount with its minus in front of the figure, in 円", () => {
    expect(formatSignedYen(-5000)).toBe("−5,000円");
    expect(formatSignedYen(3000)).toBe("3,000円");
    expect(formatSignedYen(0)).toBe("0円");
  });

  it("shows dates in Tokyo time", () => {
    // 2025-06-30T15:30Z is 2025-07-01 00:30 in Tokyo.
    const instant = Date.UTC(2025, 5, 30, 15, 30);
    expect(formatDate(instant)).toBe("2025/07/01");
    expect(formatDateTime(instant)).toBe("2025/07/01 00:30");
  });
});

describe("sizes shown to people", () => {
  it("counts in decimal units, as the parent's phone does: 30,757,635 bytes are 30.8 MB", () => {
    expect(formatBytes(30_757_635)).toBe("30.8 MB");
    expect(formatBytes(12 * 1024 * 1024)).toBe("12.6 MB");
    expect(formatBytes(8_000_000_000)).toBe("8 GB");
    expect(formatBytes(8 * 1024 ** 3)).toBe("8.6 GB");
    expect(formatBytes(1_500_000_000)).toBe("1.5 GB");
  });

  it("keeps three figures at most, drops a trailing .0, and never writes 1000 of a unit", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(999)).toBe("999 B");
    expect(formatBytes(1000)).toBe("1 KB");
    expect(formatBytes(293_888)).toBe("294 KB");
    expect(formatBytes(20_000_000)).toBe("20 MB");
    expect(formatBytes(512_000_000)).toBe("512 MB");
    expect(formatBytes(99_949)).toBe("99.9 KB");
    expect(formatBytes(99_950)).toBe("100 KB");
    expect(formatBytes(999_700)).toBe("1 MB");
    expect(formatBytes(999_600_000)).toBe("1 GB");
  });
});

describe("intervals", () => {
  it("says a number of minutes in the largest whole unit", () => {
    expect(formatInterval(1440)).toBe("1 日");
    expect(formatInterval(2880)).toBe("2 日");
    expect(formatInterval(360)).toBe("6 時間");
    expect(formatInterval(90)).toBe("90 分");
    expect(formatInterval(15)).toBe("15 分");
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
