import { vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import path from "node:path";
import { defineConfig, type Plugin } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";
import { thirdPartyLicenses } from "./scripts/vite/third-party-licenses";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

/**
 * Remix hands resource-route Responses and document redirects straight to the browser,
 * past entry.server; wrapping the route modules in the server build is what puts the
 * security headers on those too (remix-serve stays the server).
 */
function securityHeadersOnEveryRoute(): Plugin {
  const helper = JSON.stringify(
    path.resolve(import.meta.dirname, "app/server/http/security-headers.server.ts"),
  );
  return {
    name: "shop-security-headers",
    transform(code, id) {
      if (id !== "\0virtual:remix/server-build") return null;
      return {
        code: `${code}\nimport { secureRouteModules as __secureRouteModules } from ${helper};\n__secureRouteModules(routes);\n`,
        map: null,
      };
    },
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [
    tailwindcss(),
    remix({
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
        v3_routeConfig: true,
      },
    }),
    tsconfigPaths(),
    securityHeadersOnEveryRoute(),
    thirdPartyLicenses(),
  ],
  // terser packs the browser's JavaScript a little tighter than esbuild (about 2 KiB gzip a page),
  // which is what keeps the form pages within their 100 KiB budget on a phone; so does leaving
  // out the licence comments, which thirdPartyLicenses writes to a file of their own instead. The server's
  // bundle is not shipped anywhere: left readable, its CPU profiles name the shop's functions.
  build: isSsrBuild
    ? { target: "es2022", minify: false }
    : {
        target: "es2022",
        minify: "terser",
        terserOptions: { compress: { passes: 2 }, format: { comments: false } },
      },
  server: { port: 3000 },
}));
