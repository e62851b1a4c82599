/**
 * The sizes the code is held to: no module in app/ or server/ over 400 lines, and the
 * functions that are longest, so a screen or a rule that grows back into one block is seen. Printed
 * by `npx tsx scripts/module-sizes.ts [--functions N]`; the same measure backs
 * tests/scripts/module-sizes.test.ts, which fails when a module passes the limit.
 *
 * Lines are the file's lines as `wc -l` counts them, so the figures in the records can be checked by
 * hand. Two kinds of module are measured but not held to the limit, because their length is their
 * content rather than code: the database schema (one table after another) and the legal prose pages.
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

export const MODULE_LINE_LIMIT = 400;

/** Long by content, not by code: see the header. */
export const EXEMPT_FROM_LIMIT = new Set([
  "app/server/db/schema.ts",
  "app/routes/storefront/terms.tsx",
  "app/routes/storefront/privacy.tsx",
  "app/routes/storefront/legal-notice.tsx",
]);

export type ModuleSize = { file: string; lines: number };
export type FunctionSize = { file: string; name: string; lines: number };

const ROOTS = ["app", "server"];

function sourceFiles(root: string, dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(root, relative);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [relative] : [];
  });
}

export function moduleSizes(root: string): ModuleSize[] {
  return ROOTS.flatMap((dir) => sourceFiles(root, dir))
    .map((file) => ({ file, lines: lineCount(fs.readFileSync(path.join(root, file), "utf8")) }))
    .sort((a, b) => b.lines - a.lines);
}

/** As `wc -l`: the newlines. */
function lineCount(text: string): number {
  return text.split("\n").length - 1;
}

/** Every named function, method and arrow function assigned to a name, with its length in lines. */
export function functionSizes(root: string): FunctionSize[] {
  const found: FunctionSize[] = [];
  for (const file of ROOTS.flatMap((dir) => sourceFiles(root, dir))) {
    const text = fs.readFileSync(path.join(root, file), "utf8");
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const lines = (node: ts.Node) =>
      source.getLineAndCharacterOfPosition(node.getEnd()).line -
      source.getLineAndCharacterOfPosition(node.getStart(source)).line +
      1;
    const visit = (node: ts.Node) => {
      if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name && node.body)
        found.push({ file, name: node.name.getText(source), lines: lines(node) });
      else if (
        ts.isVariableDeclaration(node) &&
        node.initializer &&
        (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer))
      )
        found.push({ file, name: node.name.getText(source), lines: lines(node) });
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found.sort((a, b) => b.lines - a.lines);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = process.cwd();
  const flag = process.argv.indexOf("--functions");
  const longest = flag > 0 ? Number(process.argv[flag + 1] ?? 15) : 15;
  const modules = moduleSizes(root);
  const over = modules.filter((m) => m.lines > MODULE_LINE_LIMIT);
  console.log(`modules: ${modules.length}, over ${MODULE_LINE_LIMIT} lines: ${over.length}`);
  for (const m of modules.slice(0, 20))
    console.log(
      `${String(m.lines).padStart(5)}  ${m.file}${EXEMPT_FROM_LIMIT.has(m.file) ? "  (exempt: content)" : ""}`,
    );
  console.log(`\nlongest functions:`);
  for (const f of functionSizes(root).slice(0, longest))
    console.log(`${String(f.lines).padStart(5)}  ${f.file} ${f.name}`);
}
