import { createRequestHandler, type ServerBuild } from "@remix-run/node";

/**
 * Remix's own request handler over the shop's entry (entry.server: handleError, the document's
 * render, handleDataRequest), its root (layout, error boundary) and the route modules a test
 * names, as the built server has them: for what only Remix's handling of an error shows (the
 * status and page of a document, the `.data` answer of a post with JavaScript on). Loading the
 * entry starts the shop as the server does (migrations, loops).
 */
export async function shopRequestHandler(
  routes: Record<string, { path: string; file: () => Promise<object> }>,
) {
  const [entry, root] = await Promise.all([import("~/entry.server"), import("~/root")]);
  const serverRoutes: ServerBuild["routes"] = { root: { id: "root", path: "", module: root } };
  const assetRoutes: ServerBuild["assets"]["routes"] = { root: assetsOf("root", "", root) };
  for (const [id, { path, file }] of Object.entries(routes)) {
    // A resource route has no default export, which Remix's type wants of every module (its build has them so).
    const module = (await file()) as ServerBuild["routes"][string]["module"];
    serverRoutes[id] = { id, parentId: "root", path, module };
    assetRoutes[id] = { ...assetsOf(id, path, module), parentId: "root" };
  }
  const build: ServerBuild = {
    mode: "production",
    entry: { module: entry },
    routes: serverRoutes,
    assets: {
      entry: { module: "/assets/entry.client.js", imports: [] },
      routes: assetRoutes,
      url: "/assets/manifest.js",
      version: "test",
    },
    publicPath: "/assets/",
    assetsBuildDirectory: "build/client",
    future: {
      v3_fetcherPersist: true,
      v3_relativeSplatPath: true,
      v3_throwAbortReason: true,
      v3_lazyRouteDiscovery: true,
      v3_singleFetch: true,
    },
    isSpaMode: false,
  };
  return createRequestHandler(build, "production");
}

function assetsOf(id: string, path: string, module: object) {
  const has = (name: string) => name in module;
  return {
    id,
    path,
    module: `/assets/${id}.js`,
    imports: [],
    hasAction: has("action"),
    hasLoader: has("loader"),
    hasClientAction: false,
    hasClientLoader: false,
    hasErrorBoundary: has("ErrorBoundary"),
  };
}
