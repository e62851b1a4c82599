import { describe, expect, it } from "vitest";
import { decodablePath } from "../../server/malformed-url";

describe("a malformed percent-encoding in a path", () => {
  it.each([
    ["/%", "/%25"],
    ["/order-form/%E0%A4%A", "/order-form/%25E0%25A4%25A"],
    ["/admin/%ZZ", "/admin/%25ZZ"],
    ["/%E3%81", "/%25E3%2581"],
    ["/%C0%AF", "/%25C0%25AF"],
    ["/about%?tab=1&q=%E3%81%82", "/about%25?tab=1&q=%E3%81%82"],
    ["/a%2#top", "/a%252#top"],
  ])("%s is made to mean the characters typed: %s", (url, repaired) => {
    expect(decodablePath(url)).toBe(repaired);
    expect(() => decodeURIComponent(repaired.split(/[?#]/)[0] ?? "")).not.toThrow();
  });

  it.each([
    "/",
    "/about",
    "/order-form/%E7%AC%AC12%E5%9B%9E",
    "/media/a%2Fb.jpg",
    "/?q=%",
    "/download/abc?x=%ZZ",
  ])("leaves %s as it is", (url) => {
    expect(decodablePath(url)).toBe(url);
  });
});
