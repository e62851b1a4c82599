import { describe, expect, it } from "vitest";
import { accessCodeMatches, accessCodeProblem, normalizeAccessCode } from "~/lib/rules/access-code";

describe("a contest's 合言葉: its shape and how a typed one is compared", () => {
  it("matches whatever the width and case, and with spaces typed in it", () => {
    expect(accessCodeMatches("Sakura2026", "ｓａｋｕｒａ２０２６")).toBe(true);
    expect(accessCodeMatches("Sakura2026", " SAKURA 2026 ")).toBe(true);
    expect(accessCodeMatches("さくらカップ", "さくらｶｯﾌﾟ")).toBe(true);
    expect(accessCodeMatches("Sakura2026", "sakura2025")).toBe(false);
    expect(accessCodeMatches("Sakura2026", "")).toBe(false);
    expect(normalizeAccessCode("ＡＢＣ－１２３")).toBe("abc-123");
  });

  it("is 6 to 32 letters, digits, ー or hyphens, without spaces", () => {
    expect(accessCodeProblem("12345")).toBe("合言葉は6〜32文字で入力してください");
    expect(accessCodeProblem("a".repeat(33))).toBe("合言葉は6〜32文字で入力してください");
    expect(accessCodeProblem("abc 1234")).toBe("合言葉に空白は使えません");
    expect(accessCodeProblem("abc!1234")).toBe("合言葉に使えるのは文字・数字・長音（ー）・ハイフン（-）です");
    expect(accessCodeProblem("さくら-2026")).toBeNull();
    expect(accessCodeProblem("ｻｸﾗｶｯﾌﾟ")).toBeNull();
  });
});
