/**
 * The floor plan of app/server as it stands: which folder imports which (value imports only: a
 * type-only import is erased and may cross), the pairs that import each other both ways, and the
 * loops of folders (strongly connected components). For issue 42 (house-3), whose floor-plan test
 * will hold the table this measures against; until then, a figure before and after each move.
 *
 *   npx tsx scripts/folder-imports.ts [--edges]
 */
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const serverRoot = path.join(root, "app/server");

function filesUnder(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return filesUnder(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The folder of app/server a file is in: its first segment, or "(root)" for startup.server.ts. */
function folderOf(file: string): string | null {
  const relative = path.relative(serverRoot, file);
  if (relative.startsWith("..")) return null;
  const [first, ...rest] = relative.split(path.sep);
  return rest.length === 0 ? "(root)" : first!;
}

/** The value imports of a file: `import type` and imports of types only are left out. */
function valueImports(file: string): string[] {
  const text = fs.readFileSync(file, "utf8");
  const found: string[] = [];
  const pattern = /^(?:import|export)\s+(type\s+)?([^;]*?)\s+from\s+["']([^"']+)["']/gms;
  for (const match of text.matchAll(pattern)) {
    if (match[1]) continue;
    const names = /\{([^}]*)\}/.exec(match[2] ?? "")?.[1];
    const onlyTypes =
      names !== undefined &&
      !/^\s*\*|^[\w$]+\s*,/.test(match[2] ?? "") &&
      names
        .split(",")
        .map((name) => name.trim())
        .filter(Boolean)
        .every((name) => name.startsWith("type "));
    if (!onlyTypes) found.push(match[3]!);
  }
  for (const match of text.matchAll(/import\(\s*["']([^"']+)["']\s*\)/g)) found.push(match[1]!);
  return found;
}

function resolve(from: string, specifier: string): string | null {
  if (specifier.startsWith("~/")) return path.join(root, "app", specifier.slice(2));
  if (specifier.startsWith(".")) return path.resolve(path.dirname(from), specifier);
  return null;
}

const edges = new Map<string, Set<string>>();
for (const file of filesUnder(serverRoot)) {
  const from = folderOf(file)!;
  for (const specifier of valueImports(file)) {
    const target = resolve(file, specifier);
    const to = target ? folderOf(target) : null;
    if (!to || to === from) continue;
    if (!edges.has(from)) edges.set(from, new Set());
    edges.get(from)!.add(to);
  }
}

const folders = [...new Set([...edges.keys(), ...[...edges.values()].flatMap((set) => [...set])])].sort();
const pairs = folders.flatMap((a) =>
  [...(edges.get(a) ?? [])].filter((b) => a < b && edges.get(b)?.has(a)).map((b) => `${a} ⇄ ${b}`),
);

// Tarjan's strongly connected components: each of more than one folder is a loop.
let index = 0;
const indexOf = new Map<string, number>();
const low = new Map<string, number>();
const stack: string[] = [];
const loops: string[][] = [];
function connect(folder: string): void {
  indexOf.set(folder, index);
  low.set(folder, index++);
  stack.push(folder);
  for (const next of edges.get(folder) ?? []) {
    if (!indexOf.has(next)) {
      connect(next);
      low.set(folder, Math.min(low.get(folder)!, low.get(next)!));
    } else if (stack.includes(next)) low.set(folder, Math.min(low.get(folder)!, indexOf.get(next)!));
  }
  if (low.get(folder) === indexOf.get(folder)) {
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      component.push(member);
    } while (member !== folder);
    if (component.length > 1) loops.push(component.sort());
  }
}
for (const folder of folders) if (!indexOf.has(folder)) connect(folder);

const edgeCount = [...edges.values()].reduce((sum, set) => sum + set.size, 0);
console.log(`${folders.length} folders, ${edgeCount} ordered pairs with value imports`);
console.log(`${pairs.length} pairs import each other both ways: ${pairs.join(", ")}`);
console.log(
  `${loops.length} loops of folders, the largest of ${Math.max(0, ...loops.map((loop) => loop.length))}: ${loops.map((loop) => loop.join(" ")).join(" | ")}`,
);
if (process.argv.includes("--edges"))
  for (const folder of folders)
    console.log(`  ${folder} → ${[...(edges.get(folder) ?? [])].sort().join(", ")}`);
