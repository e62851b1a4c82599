import { describe, expect, it } from "vitest";
import { pageNumber, positiveId } from "~/lib/rules/params";
import { notFound, notFoundResponse } from "~/server/http/not-found.server";

describe("positiveId", () => {
  it("reads a whole number above zero, as a number or in plain digits", () => {
    expect(positiveId(1)).toBe(1);
    expect(positiveId("1")).toBe(1);
    expect(positiveId("12")).toBe(12);
    expect(positiveId("007")).toBe(7);
    expect(positiveId(String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
  });

  it("refuses zero, negatives and fractions", () => {
    for (const value of [0, -1, 1.5, "0", "-1", "1.5", "1.0", NaN, Infinity])
      expect(positiveId(value), String(value)).toBeNull();
  });

  it("refuses what Number() would bend into a number", () => {
    for (const value of ["1e3", " 12", "12 ", "12abc", "0x10", "+5", "", "１２"])
      expect(positiveId(value), JSON.stringify(value)).toBeNull();
  });

  it("refuses numbers beyond MAX_SAFE_INTEGER, where ids stop being exact", () => {
    expect(positiveId(Number.MAX_SAFE_INTEGER + 1)).toBeNull();
    expect(positiveId(String(Number.MAX_SAFE_INTEGER + 1))).toBeNull();
    expect(positiveId("9007199254740993")).toBeNull();
    expect(positiveId("1".repeat(400))).toBeNull();
    expect(positiveId(1e300)).toBeNull();
  });

  it("refuses values that are not a number or a string", () => {
    for (const value of [null, undefined, ["12"], [12], { id: 12 }, true, 12n, new File(["12"], "12")])
      expect(positiveId(value)).toBeNull();
  });
});

describe("pageNumber", () => {
  it("is 1 for a missing or broken page and at most the last page", () => {
    expect(pageNumber(null, 100)).toBe(1);
    expect(pageNumber("0", 100)).toBe(1);
    expect(pageNumber("abc", 100)).toBe(1);
    expect(pageNumber("7", 100)).toBe(7);
    expect(pageNumber("99999999", 100)).toBe(100);
  });
});

describe("notFound", () => {
  it("throws the plain 404 the routes answered before", async () => {
    let thrown: unknown;
    try {
      notFound();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Response);
    const response = thrown as Response;
    expect(response.status).toBe(404);
    expect(await response.text()).toBe("Not Found");
    expect(await notFoundResponse().text()).toBe("Not Found");
  });
});
