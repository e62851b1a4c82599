import { vitePlugin as remix } from "@remix-run/dev";
import path from "node:path";
import { defineConfig } from "vite";

/**
 * The framework's own floor for `npm run bench:server`: a minimal Remix app (one root, one index
 * route whose loader returns five items, the server entry Remix gives an app without one) with
 * the shop's future flags, built from the shop's own installed packages and served by the shop's
 * own server entry (server/index.ts: Express, compression, the request log) through the neutral
 * `edge` its app/entry.server.tsx exports. What the shop costs above this is ours.
 */
export default defineConfig({
  root: import.meta.dirname,
  plugins: [
    remix({
      appDirectory: path.join(import.meta.dirname, "app"),
      // Inside the shop's folder, so the server build resolves the shop's node_modules.
      buildDirectory: path.resolve(import.meta.dirname, "../../../build/minimal-remix-app"),
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
        v3_routeConfig: true,
      },
    }),
  ],
  build: { target: "es2022", emptyOutDir: true },
  logLevel: "warn",
});
