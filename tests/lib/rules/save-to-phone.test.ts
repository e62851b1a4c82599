import { describe, expect, it } from "vitest";
import { phoneOf, phonesFor, saveStepsText } from "~/lib/rules/save-to-phone";

const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const ANDROID =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36";
const WINDOWS =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";

describe("saving to a phone", () => {
  it("puts the visitor's phone first, iPhone first for a computer or an unknown browser", () => {
    expect(phonesFor(phoneOf(IPHONE))).toEqual(["iphone", "android"]);
    expect(phonesFor(phoneOf(ANDROID))).toEqual(["android", "iphone"]);
    expect(phoneOf(WINDOWS)).toBeNull();
    expect(phoneOf(null)).toBeNull();
    expect(phonesFor(null)).toEqual(["iphone", "android"]);
  });

  it("writes both phones' numbered steps for a mail, iPhone's ending in the photos", () => {
    const text = saveStepsText();
    expect(text).toContain("【iPhone（Safari）で写真に保存するには】");
    expect(text).toContain("5. 「ビデオを保存」をタップすると、「写真」アプリに保存されます。");
    expect(text).toContain("【Android（Chrome）で写真に保存するには】");
  });
});
