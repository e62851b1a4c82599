// The server entry (server/index.ts) compiled to server-build/index.js, so production runs plain
// `node` on it (no tsx, no npx). Its packages stay in node_modules; only our own files are bundled.
// The Remix build (build/) is the app: the entry loads it at start-up.
import { build } from "esbuild";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// replica-plan.js: the start script's first step (scripts/start.sh), Litestream's configuration.
// database-copy-thread.js: the thread a snapshot's copy runs in, started by the Remix build's
// app/server/backups/snapshot.server.ts (it finds the file there, ../../server-build/ from build/server/).
await build({
  // Named one by one: from two folders, esbuild would otherwise keep their paths (server-build/server/…).
  entryPoints: {
    index: path.join(root, "server/index.ts"),
    "replica-plan": path.join(root, "server/replica-plan.ts"),
    "database-copy-thread": path.join(root, "app/server/backups/database-copy-thread.server.ts"),
  },
  outdir: path.join(root, "server-build"),
  bundle: true,
  packages: "external",
  // The app's own `~/` imports (replica-plan reads the configuration through app/server/core).
  alias: { "~": path.join(root, "app") },
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: true,
  logLevel: "warning",
});
