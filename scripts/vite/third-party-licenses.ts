import fs from "node:fs";
import path from "node:path";
import type { Plugin } from "vite";

export const LICENSES_FILE = "third-party-licenses.txt";

/**
 * The browser's JavaScript is minified without its licence comments: they were about 0.8 KiB gzip
 * of every page's JavaScript (React's and React Router's headers), against a 100 KiB budget. The
 * licences are not dropped: this writes each bundled package's name, version and licence text
 * once, to build/client/third-party-licenses.txt, served beside the bundles (as webpack's
 * extractComments does).
 */
export function thirdPartyLicenses(): Plugin {
  let ssr = false;
  return {
    name: "shop-third-party-licenses",
    apply: "build",
    configResolved(config) {
      ssr = Boolean(config.build.ssr);
    },
    generateBundle(_options, bundle) {
      if (ssr) return;
      const packages = new Map<string, string>();
      for (const output of Object.values(bundle))
        if (output.type === "chunk")
          for (const id of Object.keys(output.modules)) {
            const root = packageRoot(id);
            if (root && !packages.has(root)) packages.set(root, licenceEntry(root));
          }
      const entries = [...packages.values()].sort();
      this.emitFile({
        type: "asset",
        fileName: LICENSES_FILE,
        source: `Third-party software in this site's JavaScript, with its licences.\n\n${entries.join("\n\n")}\n`,
      });
    },
  };
}

/** The folder of the package a bundled module comes from (the innermost node_modules), or null for the shop's own code. */
function packageRoot(moduleId: string): string | null {
  const file = moduleId.replace(/^\0/, "").split("?")[0] ?? "";
  const marker = `${path.sep}node_modules${path.sep}`;
  const at = file.lastIndexOf(marker);
  if (at === -1) return null;
  const [first, second] = file.slice(at + marker.length).split(path.sep);
  if (!first) return null;
  return (
    file.slice(0, at + marker.length) +
    (first.startsWith("@") && second ? `${first}${path.sep}${second}` : first)
  );
}

function licenceEntry(root: string): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as {
    name?: string;
    version?: string;
    license?: string;
  };
  const licenceFile = fs.readdirSync(root).find((name) => /^licen[cs]e(\.md|\.txt)?$/i.test(name));
  const text = licenceFile
    ? fs.readFileSync(path.join(root, licenceFile), "utf8").trim()
    : `License: ${manifest.license ?? "see the package"}`;
  return `${"=".repeat(72)}\n${manifest.name ?? path.basename(root)}@${manifest.version ?? "?"} (${manifest.license ?? "?"})\n${"=".repeat(72)}\n${text}`;
}
