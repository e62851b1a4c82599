import { vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";
import { thirdPartyLicenses } from "./scripts/vite/third-party-licenses";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
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
        rollupOptions: {
          // Remix v2 makes every route module an entry of the browser's build (its manifest
          // needs a chunk for each route), and a route with nothing for the browser — a resource
          // route, a route with only an action — is an empty chunk, which Rollup reports once per
          // route (65 lines a build). That is Remix's doing, not the shop's, so exactly that
          // warning is dropped here (Rollup's documented onwarn; Remix's own onwarn hands every
          // warning on to this one). Every other warning still prints.
          onwarn(warning, warn) {
            if (warning.code === "EMPTY_BUNDLE") return;
            warn(warning);
          },
          output: {
            // conform's form state (its useForm and its reading of a post) kept in one chunk. Left
            // to Rollup it is cut in two by who imports each part (the order form's deferred check
            // reads a post with conform but draws no conform form), and every other page with a
            // form loads both halves (0.8 KiB more gzip). Its field helpers (getInputProps…) are a
            // chunk of their own, loaded with the shop's field components without the form state.
            manualChunks(id) {
              if (/\/@conform-to\/react\/dist\/(helpers|_virtual\/)/.test(id)) return "conform-helpers";
              if (/\/@conform-to\/(dom|react)\//.test(id)) return "conform";
              // The framework named too: else Rollup puts React into conform's chunk (conform imports
              // it) and every page loads conform.
              if (
                /\/node_modules\/(react|react-dom|scheduler|react-router|react-router-dom|@remix-run\/react|@remix-run\/router|turbo-stream)\//.test(
                  id,
                )
              )
                return "components";
            },
          },
        },
      },
  server: { port: 3000 },
}));
