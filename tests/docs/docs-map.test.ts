import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { serverFolderMap } from "../../scripts/floor-plan";

/**
 * docs/README.md against the repository, so the newcomer's guide cannot drift from the code.
 *
 * Paths: every backticked word or link target that starts at a top-level folder of the
 * repository (`app/…`, `server/…`, `scripts/…`, `tests/…`, `e2e/…`, `drizzle/…`, `patches/…`,
 * `docs/…`, `public/…`), every link target (relative to docs/), and every path written in plain
 * text with one of those roots and a file extension, must exist. `{a,b}` is expanded and a `*` in
 * the last part must match at least one file; a path with `…` is an example, not a path. A bare
 * file name (`order-creation.server.ts`, `env/config-report.server.ts`) is read against the
 * folders of the full paths written in the same table row or sentence (docs/ when it names
 * none), and must exist in one. `../shared/…` is the project's shared folder, outside the
 * repository, and is not checked.
 *
 * Names: a backticked identifier (`requireApiAdmin`, `now()`) written in the same unit as a
 * backticked .ts/.tsx/.mts/.mjs path (or a folder: the files directly in it) must be exported
 * (`export function|const|class|type|… name`, or `name` inside an `export { … }`) by one of the
 * files named in that unit. The unit is a table row's last cell (the "File" column: the first
 * column describes behaviour and names fields, columns and variables) or, outside tables, a
 * sentence. Some names are not exports and pass where they are: a module's private helper the
 * guide points into (`function name`, `const name`, a method `name(…) {`) or a JSON answer's or
 * body's field (`name:` or `"name"`) in one of the unit's files; an environment
 * variable (a SCREAMING_CASE name `app/server/core/env/` reads); a table or column (a lower-case
 * name written `"name"` in `app/server/db/schema.ts`). A name that is nowhere in those files (a
 * renamed export, an export of another file) fails.
 *
 * The folder map: every entry of its tree exists, and every folder directly under `app/server/`,
 * `app/lib/` and `server/` (and `server/` itself) has an entry, so a new folder cannot be left out.
 * Its app/server part is made from the floor plan (scripts/floor-plan.ts), folders inside folders
 * included: the page must carry it as `npx tsx scripts/folder-imports.ts --map` prints it.
 */

const ROOT = process.cwd();
const DOC = "docs/README.md";
const ROOTS = ["app", "server", "scripts", "tests", "e2e", "drizzle", "patches", "docs", "public"];
const text = fs.readFileSync(path.join(ROOT, DOC), "utf8");

function exists(rel: string): boolean {
  return fs.existsSync(path.join(ROOT, rel));
}

/** `a/{b,c}.ts` → `a/b.ts`, `a/c.ts`. */
function expandBraces(p: string): string[] {
  const m = /\{([^{}]*)\}/.exec(p);
  if (!m) return [p];
  return m[1]!
    .split(",")
    .flatMap((alt) => expandBraces(p.slice(0, m.index) + alt + p.slice(m.index + m[0].length)));
}

/** The files a written path stands for (a `*` in its last part matched), empty when none exists. */
function resolvePath(rel: string): string[] {
  const clean = path.posix.normalize(rel);
  if (clean.startsWith("../")) return [];
  const base = path.posix.basename(clean);
  if (!base.includes("*")) return exists(clean) ? [clean.replace(/\/$/, "")] : [];
  const dir = path.posix.dirname(clean);
  if (!exists(dir)) return [];
  const pattern = new RegExp(`^${base.replace(/[.+?^$()[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`);
  return fs
    .readdirSync(path.join(ROOT, dir))
    .filter((name) => pattern.test(name))
    .map((name) => `${dir}/${name}`);
}

function isRepoPath(word: string): boolean {
  const first = word.split("/")[0]!;
  return word.includes("/") && ROOTS.includes(first);
}

const FILE_EXTENSION = /\.(ts|tsx|mts|mjs|js|md|sql|css|svg|patch|json|toml|sh)$/;
const IDENTIFIER = /^[A-Za-z_$][\w$]*(\(\))?$/;

/** The words written in backticks. */
function backticked(s: string): string[] {
  return [...s.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);
}

function linkTargets(s: string): string[] {
  return [...s.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!.replace(/#.*$/, ""))
    .filter((t) => t && !/^[a-z]+:/.test(t));
}

/** Plain-text paths such as e2e/storefront/toast-clear-of-actions.spec.ts (not inside backticks or links). */
function plainPaths(s: string): string[] {
  const bare = s.replace(/`[^`\n]*`/g, " ").replace(/\]\([^)]*\)/g, "]");
  const pattern = new RegExp(`(?<![\\w./-])((?:${ROOTS.join("|")})/[\\w@+./-]*\\w)`, "g");
  return [...bare.matchAll(pattern)].map((m) => m[1]!).filter((p) => FILE_EXTENSION.test(p));
}

/** The document without its fenced code blocks, and the folder map's block. */
const fences = [...text.matchAll(/^```\n([\s\S]*?)^```$/gm)];
const prose = text.replace(/^```\n[\s\S]*?^```$/gm, "");
const folderMap = (() => {
  const at = text.indexOf("## Folder map");
  const block = fences.find((f) => f.index > at);
  if (at < 0 || !block) throw new Error(`${DOC} has no folder map`);
  return block[1]!;
})();

/** Table rows' cells (a `|` inside backticks does not split), and the sentences outside tables. */
function cells(row: string): string[] {
  const out: string[] = [];
  let cell = "";
  let inCode = false;
  for (const ch of row.trim().replace(/^\||\|$/g, "")) {
    if (ch === "`") inCode = !inCode;
    if (ch === "|" && !inCode) {
      out.push(cell);
      cell = "";
    } else cell += ch;
  }
  return [...out, cell];
}

type Unit = { where: string; text: string; namesFrom: string };

const units: Unit[] = (() => {
  const lines = prose.split("\n");
  const out: Unit[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    const joined = paragraph.join(" ");
    paragraph = [];
    for (const sentence of joined.split(/(?<=\.)\s+(?=[A-Z`(])/)) {
      if (sentence.trim()) out.push({ where: sentence.slice(0, 80), text: sentence, namesFrom: sentence });
    }
  };
  for (const line of lines) {
    if (line.startsWith("|")) {
      flush();
      if (/^\|[-| ]+\|$/.test(line)) continue;
      const row = cells(line);
      out.push({ where: (row[0] ?? "").trim().slice(0, 80), text: line, namesFrom: row.at(-1) ?? "" });
    } else if (!line.trim() || line.startsWith("#") || /^(\d+\.|-) /.test(line)) {
      flush();
      if (line.trim() && !line.startsWith("#")) paragraph.push(line);
    } else paragraph.push(line);
  }
  flush();
  return out;
})();

/** The full paths of a unit, then its bare file names read against their folders. */
function unitFiles(unit: Unit): { files: string[]; missing: string[] } {
  const words = backticked(unit.text);
  const written = [...words.filter(isRepoPath), ...plainPaths(unit.text)].filter((w) => !w.includes("…"));
  const files: string[] = [];
  const missing: string[] = [];
  for (const w of written) {
    const found = expandBraces(w).map((p) => ({ p, hits: resolvePath(p) }));
    for (const { p, hits } of found) {
      if (hits.length === 0) missing.push(p);
      files.push(...hits);
    }
  }
  const folders = [
    ...new Set(files.map((f) => (fs.statSync(path.join(ROOT, f)).isDirectory() ? f : path.posix.dirname(f)))),
  ];
  const bare = words.filter(
    (w) => !isRepoPath(w) && !w.startsWith(".") && FILE_EXTENSION.test(w) && /^[\w@+./-]+$/.test(w),
  );
  const against = folders.length > 0 ? folders : ["docs"];
  for (const name of bare) {
    const hits = against.flatMap((dir) => resolvePath(`${dir}/${name}`));
    if (hits.length === 0) missing.push(`${name} (beside ${against.join(", ")})`);
    files.push(...hits);
  }
  return { files: [...new Set(files)], missing };
}

function sourceOf(file: string): string {
  return fs.readFileSync(path.join(ROOT, file), "utf8");
}

const DECLARATION =
  "(?:declare\\s+)?(?:async\\s+)?(?:abstract\\s+)?(?:function\\*?|const|let|var|class|type|interface|enum)\\s+";

function escaped(name: string): string {
  return name.replace(/\$/g, "\\$");
}

function exports(file: string, name: string): boolean {
  const source = sourceOf(file);
  if (new RegExp(`export\\s+(?:default\\s+)?${DECLARATION}${escaped(name)}\\b`).test(source)) return true;
  return [...source.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)].some((m) =>
    m[1]!.split(",").some(
      (part) =>
        part
          .trim()
          .split(/\s+as\s+/)
          .at(-1)
          ?.replace(/^type\s+/, "") === name,
    ),
  );
}

const envSources = fs
  .readdirSync(path.join(ROOT, "app/server/core/env"))
  .map((f) => sourceOf(`app/server/core/env/${f}`))
  .join("\n");
const schemaSource = sourceOf("app/server/db/schema.ts");

/** Declared in the file without `export`: a private helper, a method, or a field of a JSON shape. */
function declares(file: string, name: string): boolean {
  const n = escaped(name);
  return new RegExp(
    `(?:^|[\\s;{(,])${DECLARATION}${n}\\b|^\\s*(?:async\\s+)?${n}\\s*\\(.*\\)[^;]*\\{\\s*$|^\\s*${n}\\s*:|[{,]\\s*${n}\\s*:|"${n}"`,
    "m",
  ).test(sourceOf(file));
}

/** Not an export: an environment variable the configuration reads, or a table or column. */
function isSettingOrTable(name: string): boolean {
  if (/^[A-Z][A-Z0-9_]+$/.test(name)) return new RegExp(`\\b${name}\\b`).test(envSources);
  if (/^[a-z][a-z0-9_]*$/.test(name)) return schemaSource.includes(`"${name}"`);
  return false;
}

/** The code files a unit names: its .ts/.tsx files, and those directly in its folders. */
function codeFiles(files: string[]): string[] {
  return files.flatMap((f) => {
    const full = path.join(ROOT, f);
    if (!fs.statSync(full).isDirectory()) return /\.(ts|tsx|mts|mjs)$/.test(f) ? [f] : [];
    return fs
      .readdirSync(full, { withFileTypes: true })
      .filter((d) => d.isFile() && /\.(ts|tsx|mts|mjs)$/.test(d.name))
      .map((d) => `${f}/${d.name}`);
  });
}

describe("docs/README.md names only what exists", () => {
  it("every path it writes exists", () => {
    const missing = units.flatMap((u) => unitFiles(u).missing.map((m) => `${m}  [${u.where}]`));
    const links = linkTargets(prose)
      .filter((t) => !t.includes("…"))
      .filter((t) => !exists(path.posix.join("docs", t)))
      .map((t) => `link ${t}`);
    expect([...missing, ...links]).toEqual([]);
  });

  it("every name written beside a file is exported (or declared) by a file named there", () => {
    const wrong: string[] = [];
    for (const unit of units) {
      const { files } = unitFiles(unit);
      const code = codeFiles(files);
      if (code.length === 0) continue;
      for (const word of backticked(unit.namesFrom)) {
        if (!IDENTIFIER.test(word)) continue;
        const name = word.replace(/\(\)$/, "");
        if (code.some((f) => exports(f, name) || declares(f, name)) || isSettingOrTable(name)) continue;
        wrong.push(`${name} not exported by ${code.join(", ")}  [${unit.where}]`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

/** The folder map's tree: each entry's path from its indentation (descriptions start further in). */
function mapEntries(): string[] {
  const entries: string[] = [];
  const stack: { indent: number; dir: string }[] = [];
  for (const line of folderMap.split("\n")) {
    const m = /^( *)([^\s,]+(?:, [^\s,]+)*)/.exec(line);
    if (!m || m[1]!.length >= 16) continue;
    const indent = m[1]!.length;
    while (stack.length && stack.at(-1)!.indent >= indent) stack.pop();
    const parent = stack.at(-1)?.dir ?? "";
    for (const name of m[2]!.split(", ")) {
      const full = parent + name;
      entries.push(full);
      if (name.endsWith("/")) stack.push({ indent, dir: full });
    }
  }
  return entries;
}

describe("the folder map of docs/README.md", () => {
  const entries = mapEntries();

  it("names only what exists", () => {
    expect(entries.filter((e) => !exists(e))).toEqual([]);
  });

  it("has an entry for every folder of app/server/, app/lib/ and server/", () => {
    const folders = ["app/server", "app/lib", "server"].flatMap((dir) =>
      fs
        .readdirSync(path.join(ROOT, dir), { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => `${dir}/${d.name}/`),
    );
    expect(folders.length).toBeGreaterThan(10);
    expect([...folders, "server/"].filter((f) => !entries.includes(f))).toEqual([]);
  });

  it("has app/server's part as the floor plan makes it, every folder inside a folder with it", () => {
    const made = serverFolderMap();
    const lines = folderMap.split("\n");
    const start = lines.indexOf(made[0]!);
    expect(lines.slice(start, start + made.length).join("\n")).toBe(made.join("\n"));
    const inside = fs
      .readdirSync(path.join(ROOT, "app/server"), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${path.relative(ROOT, path.join(entry.parentPath, entry.name))}/`);
    expect(inside.filter((folder) => !entries.includes(folder))).toEqual([]);
  });
});
