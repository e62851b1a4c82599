import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  FLOORS,
  allowed,
  edgesOf,
  folderImports,
  folderOf,
  loopsOf,
  root,
  valueImports,
} from "../../scripts/floor-plan";

/**
 * The floor plan of app/server (scripts/floor-plan.ts): value imports go down a floor or sideways,
 * never up, no two folders import each other and no folders import each other in a loop. Each
 * failure names the files whose imports break it.
 */
describe("the floor plan of app/server", () => {
  const imports = folderImports();
  const edges = edgesOf(imports);
  const where = (pairs: Set<string>) =>
    imports
      .filter(({ from, to }) => pairs.has(`${from} ${to}`))
      .map(({ file, specifier }) => `${file} imports ${specifier}`)
      .join("\n");

  it("every folder of app/server stands on a floor, and every folder the plan names exists", () => {
    const folders = fs
      .readdirSync(path.join(root, "app/server"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    const placed = FLOORS.flatMap((floor) => Object.keys(floor.folders));
    expect(folders.filter((folder) => !placed.includes(folder))).toEqual([]);
    const missing = placed.filter(
      (folder) => folder !== "(root)" && !fs.existsSync(path.join(root, "app/server", folder)),
    );
    expect(missing).toEqual([]);
  });

  it("a folder the plan names inside another (orders/admin) is a folder of its own", () => {
    expect(folderOf(path.join(root, "app/server/orders/admin/order-list.server.ts"))).toBe("orders/admin");
    expect(folderOf(path.join(root, "app/server/orders/orders.server.ts"))).toBe("orders");
    expect(folderOf(path.join(root, "app/server/media/jobs/queue.server.ts"))).toBe("media");
    expect(folderOf(path.join(root, "app/server/startup.server.ts"))).toBe("(root)");
  });

  it("no import goes up a floor", () => {
    const up = new Set(
      imports.filter(({ from, to }) => !allowed(from, to)).map(({ from, to }) => `${from} ${to}`),
    );
    expect([...up], where(up)).toEqual([]);
  });

  it("no two folders import each other, and no folders import each other in a loop", () => {
    const both = new Set(
      [...edges.keys()].flatMap((a) =>
        [...edges.get(a)!].filter((b) => edges.get(b)?.has(a)).map((b) => `${a} ${b}`),
      ),
    );
    expect([...both], where(both)).toEqual([]);
    expect(loopsOf(edges)).toEqual([]);
  });

  it("finds a loop of three folders that no pair shows", () => {
    const loop = new Map([
      ["a", new Set(["b"])],
      ["b", new Set(["c"])],
      ["c", new Set(["a"])],
      ["d", new Set(["a"])],
    ]);
    expect(loopsOf(loop)).toEqual([["a", "b", "c"]]);
  });

  it("type-only imports may cross; value imports, re-exports and dynamic imports count", () => {
    const text = [
      'import type { Env } from "../core/env.server";',
      'import { type Tx, type Db } from "../db/client.server";',
      'import { env, type TrustProxy } from "../core/env.server";',
      'export { x } from "../orders/x.server";',
      'const later = await import("../media/jobs/worker.server");',
    ].join("\n");
    expect(valueImports(text)).toEqual([
      "../core/env.server",
      "../orders/x.server",
      "../media/jobs/worker.server",
    ]);
  });
});
