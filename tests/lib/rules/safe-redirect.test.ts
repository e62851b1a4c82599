import { describe, expect, it } from "vitest";
import { safeRedirect } from "~/lib/rules/safe-redirect";

describe("safeRedirect (the open-redirect guard for ?redirectTo=)", () => {
  it("keeps paths on this site, with their query and hash", () => {
    expect(safeRedirect("/account")).toBe("/account");
    expect(safeRedirect("/purchase-history?page=2#top")).toBe("/purchase-history?page=2#top");
    expect(safeRedirect("/order-form/%E6%A1%9C")).toBe("/order-form/%E6%A1%9C");
  });

  it.each([
    ["//evil.com"],
    ["//evil.com/account"],
    ["/\\evil.com"],
    ["/\\/evil.com"],
    ["\\\\evil.com"],
    ["https://evil.com"],
    ["http://localhost/account"],
    ["javascript:alert(1)"],
    ["JavaScript:alert(1)"],
    [" /account"],
    ["/\t/evil.com"],
    ["/\n/evil.com"],
    ["/..//evil.com"],
    ["/%2e%2e//evil.com"],
    ["account"],
    ["data:text/html,hi"],
    [""],
    ["/" + "a".repeat(3000)],
  ])("refuses %j", (value) => {
    expect(safeRedirect(value)).toBe("/");
  });

  it("refuses what is not a string and uses the given fallback", () => {
    expect(safeRedirect(null)).toBe("/");
    expect(safeRedirect(undefined, "/admin")).toBe("/admin");
    expect(safeRedirect(["/account"])).toBe("/");
    expect(safeRedirect(42, "")).toBe("");
  });
});
