import { describe, expect, it } from "vitest";
import { formNumber } from "~/lib/rules/typed-amounts";

describe("formNumber: a form's number field as typed", () => {
  it.each([
    ["3000", 3000],
    ["3,000", 3000],
    ["３，０００", 3000],
    [" 12 ", 12],
    ["0", 0],
  ])("%s is %d", (typed, value) => {
    expect(formNumber(typed)).toBe(value);
  });

  it.each([
    ["-5", -5],
    ["1.5", 1.5],
    ["－５", -5],
  ])("%s stays %d, for the schema to say 0以上 or 整数で", (typed, value) => {
    expect(formNumber(typed)).toBe(value);
  });

  it.each(["0x10", "1e3", "Infinity", "+5", "1 000", "12abc", "", "1,0000"])("%s is no number", (typed) => {
    expect(formNumber(typed)).toBeNaN();
  });

  it("a number too large to be exact is still a number, for the schema's maximum to refuse", () => {
    expect(formNumber("9".repeat(20))).toBeGreaterThan(Number.MAX_SAFE_INTEGER);
  });
});
