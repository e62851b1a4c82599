// Loaded into every Node process of `npm run test:node24` (NODE_OPTIONS=--import, set by
// scripts/test-node24.mjs): vitest, its workers, and the `npx tsx` children some tests start.
// The repository's better-sqlite3 is built for the machines' Node 20 and cannot be loaded by
// Node 24 (another ABI). Instead of a second copy of the package, or a change to every place
// that opens a database (the shop, the tests, the backup scripts), this sends the one require
// of its native addon to the copy built for Node 24 under .tmp/node24/. Everything else,
// including the package's JavaScript, is the repository's own.
import module from "node:module";
import { pathToFileURL } from "node:url";

const addon = process.env.SHOP_NODE24_SQLITE_ADDON;
const abi = process.env.SHOP_NODE24_ABI;
// The variables are inherited by every child, including one a test might start with another
// Node (an absolute /usr/bin/node): only a process of the ABI the addon was built for is redirected.
// registerHooks (Node 22.15+) is the documented way to change what require() resolves to.
if (addon && abi === process.versions.modules && typeof module.registerHooks === "function") {
  const repositoryAddon = new URL(
    "../node_modules/better-sqlite3/build/Release/better_sqlite3.node",
    import.meta.url,
  ).href;
  const node24Addon = pathToFileURL(addon).href;
  module.registerHooks({
    resolve(specifier, context, nextResolve) {
      const resolved = nextResolve(specifier, context);
      return resolved.url === repositoryAddon ? { ...resolved, url: node24Addon } : resolved;
    },
  });
}
