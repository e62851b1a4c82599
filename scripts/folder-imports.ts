/**
 * The floor plan of app/server as it stands (scripts/floor-plan.ts): which folder imports which
 * (value imports only), the pairs that import each other both ways, the loops of folders, and the
 * imports that go up a floor. A figure before and after each move.
 *
 *   npx tsx scripts/folder-imports.ts [--edges] [--map]
 *
 * --map prints the app/server part of docs/README.md's folder map, made from the plan.
 */
import { allowed, edgesOf, folderImports, loopsOf, serverFolderMap } from "./floor-plan";

if (process.argv.includes("--map")) {
  console.log(serverFolderMap().join("\n"));
  process.exit(0);
}

const imports = folderImports();
const edges = edgesOf(imports);
const folders = [...new Set(imports.flatMap(({ from, to }) => [from, to]))].sort();
const pairs = folders.flatMap((a) =>
  [...(edges.get(a) ?? [])].filter((b) => a < b && edges.get(b)?.has(a)).map((b) => `${a} ⇄ ${b}`),
);
const loops = loopsOf(edges);
const up = [
  ...new Set(imports.filter(({ from, to }) => !allowed(from, to)).map(({ from, to }) => `${from} → ${to}`)),
];
const edgeCount = [...edges.values()].reduce((sum, set) => sum + set.size, 0);
console.log(`${folders.length} folders, ${edgeCount} ordered pairs with value imports`);
console.log(`${pairs.length} pairs import each other both ways: ${pairs.join(", ")}`);
console.log(
  `${loops.length} loops of folders, the largest of ${Math.max(0, ...loops.map((loop) => loop.length))}: ${loops.map((loop) => loop.join(" ")).join(" | ")}`,
);
console.log(`${up.length} imports go up a floor: ${up.join(", ")}`);
if (process.argv.includes("--edges"))
  for (const folder of folders)
    console.log(`  ${folder} → ${[...(edges.get(folder) ?? [])].sort().join(", ")}`);
