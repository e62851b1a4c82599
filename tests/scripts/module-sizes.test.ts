import { describe, expect, it } from "vitest";
import { EXEMPT_FROM_LIMIT, MODULE_LINE_LIMIT, moduleSizes } from "../../scripts/module-sizes";

describe("module sizes: screens and rules as small as their jobs", () => {
  it(`no module in app/ or server/ is over ${MODULE_LINE_LIMIT} lines, the schema and legal prose aside`, () => {
    const over = moduleSizes(process.cwd())
      .filter((m) => m.lines > MODULE_LINE_LIMIT && !EXEMPT_FROM_LIMIT.has(m.file))
      .map((m) => `${m.file}: ${m.lines}`);
    expect(over).toEqual([]);
  });
});
