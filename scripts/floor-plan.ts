/**
 * The floor plan of app/server (ARCHITECTURE.md, "Layout"; decision 0044): each folder stands on a
 * floor, and a value import goes down, or sideways within a floor, never up; and no two folders
 * import each other, no folders import in a loop. Type-only imports are erased at build time and
 * may cross. The table is checked by tests/scripts/floor-plan.test.ts and measured by
 * scripts/folder-imports.ts.
 */
import fs from "node:fs";
import path from "node:path";

/** Lowest first. A folder may import any folder of a lower floor, and of its own without a loop. */
export const FLOORS: { name: string; folders: string[]; says: string }[] = [
  { name: "core", folders: ["core"], says: "configuration, the clock, secrets, the seller, the disk" },
  { name: "data", folders: ["db"], says: "the schema and the connection" },
  {
    name: "platform",
    folders: ["http", "files", "mail", "payments"],
    says: "requests and answers, stored files, mail, the payment providers",
  },
  {
    name: "rules",
    folders: ["accounts", "auth", "catalog", "promotions"],
    says: "who may do what, what is for sale and at what price",
  },
  {
    name: "flows",
    folders: ["checkout", "orders", "refunds", "delivery", "production", "media", "backups"],
    says: "what happens to an order, a video, a copy of the database",
  },
  {
    name: "composition",
    folders: ["(root)", "metrics"],
    says: "start-up, the app's edge, what /metrics reads of everyone",
  },
];

export const root = path.resolve(import.meta.dirname, "..");
const serverRoot = path.join(root, "app/server");

function filesUnder(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return filesUnder(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The folder of app/server a file is in: its first segment, or "(root)" for a file beside them. */
export function folderOf(file: string): string | null {
  const relative = path.relative(serverRoot, file);
  if (relative.startsWith("..")) return null;
  const [first, ...rest] = relative.split(path.sep);
  return rest.length === 0 ? "(root)" : first!;
}

/** The value imports of a source text (static, re-exports and dynamic): `import type` and type-only names left out. */
export function valueImports(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/^(?:import|export)\s+(type\s+)?([^;]*?)\s+from\s+["']([^"']+)["']/gms)) {
    if (match[1]) continue;
    const clause = match[2] ?? "";
    const names = /^\{([^}]*)\}$/.exec(clause.trim())?.[1];
    const onlyTypes =
      names !== undefined &&
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

export type FolderImport = { from: string; to: string; file: string; specifier: string };

/** Every value import from one folder of app/server to another. */
export function folderImports(): FolderImport[] {
  const found: FolderImport[] = [];
  for (const file of filesUnder(serverRoot)) {
    const from = folderOf(file)!;
    for (const specifier of valueImports(fs.readFileSync(file, "utf8"))) {
      const target = specifier.startsWith("~/")
        ? path.join(root, "app", specifier.slice(2))
        : specifier.startsWith(".")
          ? path.resolve(path.dirname(file), specifier)
          : null;
      const to = target ? folderOf(target) : null;
      if (to && to !== from) found.push({ from, to, file: path.relative(root, file), specifier });
    }
  }
  return found;
}

const floorOf = new Map(
  FLOORS.flatMap((floor, rank) => floor.folders.map((folder) => [folder, rank] as const)),
);

/** Whether the plan lets `from` import `to`: down, or sideways (loops are found apart). */
export function allowed(from: string, to: string): boolean {
  const [a, b] = [floorOf.get(from), floorOf.get(to)];
  return a !== undefined && b !== undefined && b <= a;
}

/** The loops among folders (strongly connected components of more than one), each sorted. */
export function loopsOf(edges: Map<string, Set<string>>): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const loops: string[][] = [];
  const connect = (folder: string): void => {
    indexOf.set(folder, index);
    low.set(folder, index++);
    stack.push(folder);
    for (const next of edges.get(folder) ?? []) {
      if (!indexOf.has(next)) {
        connect(next);
        low.set(folder, Math.min(low.get(folder)!, low.get(next)!));
      } else if (stack.includes(next)) low.set(folder, Math.min(low.get(folder)!, indexOf.get(next)!));
    }
    if (low.get(folder) !== indexOf.get(folder)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      component.push(member);
    } while (member !== folder);
    if (component.length > 1) loops.push(component.sort());
  };
  for (const folder of edges.keys()) if (!indexOf.has(folder)) connect(folder);
  return loops;
}

/** The imports as a graph of folders. */
export function edgesOf(imports: FolderImport[]): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const { from, to } of imports) {
    if (!edges.has(from)) edges.set(from, new Set());
    edges.get(from)!.add(to);
  }
  return edges;
}
