// The patch of @remix-run/router (patches/, decision 0023): the server keeps each route table's
// flattened, ranked branches and each pattern's RegExp instead of rebuilding them on every match.
// The browser's copy (the ES module) is not patched, which makes it the reference here.
import { createRequire } from "node:module";
import type { RouteConfigEntry } from "@remix-run/route-config";
import type { AgnosticRouteObject } from "@remix-run/router";
import * as esModule from "@remix-run/router/dist/router.js";
import { describe, expect, it } from "vitest";
import routeConfig from "~/routes";

type RouterModule = typeof import("@remix-run/router");
// The ES module's own declaration file names only part of it; it exports what the package does.
const reference = esModule as unknown as RouterModule;
const patched = createRequire(import.meta.url)("@remix-run/router") as RouterModule;

type Route = AgnosticRouteObject & { children?: Route[] };

/** The shop's route table as the server builds it: every route of app/routes.ts under the root. */
function shopRoutes(): Route[] {
  const convert = (entry: RouteConfigEntry): Route =>
    entry.index
      ? { id: entry.id ?? entry.file, index: true, path: entry.path }
      : {
          id: entry.id ?? entry.file,
          path: entry.path,
          caseSensitive: entry.caseSensitive,
          children: entry.children?.map(convert),
        };
  return [{ id: "root", path: "", children: (routeConfig as RouteConfigEntry[]).map(convert) }];
}

/** Every path of the table with its parameters filled in, and some that match nothing but the 404 route. */
function pathsOf(routes: Route[], parent = ""): string[] {
  return routes.flatMap((route) => {
    const path = route.path ? `${parent}/${route.path}`.replace(/\/+/g, "/") : parent;
    const filled = path.replace(/:[\w-]+\??/g, "第12回-大会").replace(/\*$/, "a/b");
    return [filled || "/", ...pathsOf(route.children ?? [], path)];
  });
}

const summary = (matches: ReturnType<typeof reference.matchRoutes>) =>
  matches?.map((match) => [match.route.id, match.params, match.pathname, match.pathnameBase]) ?? null;

describe("router patch (decision 0023)", () => {
  it("matches every path of the shop's table exactly as the unpatched router does, on the first match and after", () => {
    const routes = shopRoutes();
    const paths = [
      ...pathsOf(routes),
      "/no-such-page",
      "/ADMIN/orders",
      "/admin/orders/",
      "/order-form/%E7%AC%AC12%E5%9B%9E",
      "/download/abc/1/vertical",
      "/admin/contests/1/athletes/extra/segments",
    ];
    expect(paths.length).toBeGreaterThan(60);
    for (let round = 0; round < 2; round++)
      for (const path of paths)
        expect(summary(patched.matchRoutes(routes, path)), `${path}, round ${round + 1}`).toEqual(
          summary(reference.matchRoutes(routes, path)),
        );
  });

  it("hands out a copy of a path's kept matches: what one caller changes, the next does not see", () => {
    const routes = shopRoutes();
    const first = patched.matchRoutes(routes, "/order-form/第12回");
    const last = first?.at(-1);
    expect(last?.params).toEqual({ contestSlug: "第12回" });
    // Typed read-only, but plain JavaScript may write to it.
    if (last) (last.params as Record<string, string>).contestSlug = "changed";
    expect(patched.matchRoutes(routes, "/order-form/第12回")?.at(-1)?.params).toEqual({
      contestSlug: "第12回",
    });
  });

  it("a route table is flattened and ranked once, on its first match", () => {
    const routes: Route[] = [{ id: "home", index: true }];
    expect(patched.matchRoutes(routes, "/late")).toBeNull();
    routes.push({ id: "late", path: "late" });
    // The kept branches are those of the first match: the server's tables never change.
    expect(patched.matchRoutes(routes, "/late")).toBeNull();
    expect(summary(reference.matchRoutes(routes, "/late"))).toEqual([["late", {}, "/late", "/late"]]);
    // Another table is flattened on its own.
    expect(summary(patched.matchRoutes([...routes], "/late"))).toEqual([["late", {}, "/late", "/late"]]);
  });

  it("a pattern's RegExp is built once", () => {
    const Original = globalThis.RegExp;
    let built = 0;
    globalThis.RegExp = class extends Original {
      constructor(...args: ConstructorParameters<RegExpConstructor>) {
        super(...args);
        built++;
      }
    } as RegExpConstructor;
    try {
      const pattern = { path: `/patched-${Date.now()}/:id`, caseSensitive: false, end: true };
      expect(patched.matchPath(pattern, "/elsewhere")).toBeNull();
      expect(built).toBe(1);
      expect(patched.matchPath(pattern, `${pattern.path.split("/:")[0]}/7`)?.params).toEqual({ id: "7" });
      expect(patched.matchPath({ ...pattern, end: false }, "/elsewhere")).toBeNull();
      expect(built).toBe(2); // the same path with another `end` is another pattern
      reference.matchPath(pattern, "/elsewhere");
      expect(built).toBe(3); // the unpatched router builds it on every call
    } finally {
      globalThis.RegExp = Original;
    }
  });
});

describe("route trees of a build made once (decision 0023)", () => {
  type Element = { props?: { router?: { routes: unknown }; children?: unknown } };
  const routerIn = (node: unknown): { routes: unknown } | undefined => {
    if (!node || typeof node !== "object") return undefined;
    if (Array.isArray(node)) return node.map(routerIn).find(Boolean);
    const { props } = node as Element;
    return props?.router ?? routerIn(props?.children);
  };

  it("RemixServer renders every page from the same route tree and data routes", () => {
    // As the server build loads it: Node's `require` of the package's CommonJS entry.
    const { RemixServer } = createRequire(import.meta.url)(
      "@remix-run/react",
    ) as typeof import("@remix-run/react");
    const manifest = {
      routes: { root: { id: "root", path: "", hasLoader: false, hasClientLoader: false, module: "" } },
    };
    const rootModule = { default: () => null };
    // As the server runtime makes it: a new object for each request, holding the build's modules.
    const context = () => ({
      manifest,
      routeModules: { root: rootModule },
      future: {},
      isSpaMode: false,
      serverHandoffString: "{}",
      staticHandlerContext: {
        basename: "/",
        location: { pathname: "/", search: "", hash: "", state: null, key: "default" },
        matches: [],
        loaderData: {},
        actionData: null,
        errors: null,
        statusCode: 200,
        loaderHeaders: {},
        actionHeaders: {},
        activeDeferreds: null,
      },
    });
    const render = () =>
      routerIn(
        (RemixServer as unknown as (props: { context: unknown; url: string }) => unknown)({
          context: context(),
          url: "http://shop.test/",
        }),
      );
    const first = render();
    expect(first?.routes).toBeDefined();
    expect(render()?.routes).toBe(first?.routes);
  });
});

describe("a loader's request handed on as it is (decision 0023)", () => {
  type Loader = (args: { request: Request }) => unknown;
  type DataModule = {
    callRouteLoader: (args: {
      loadContext: unknown;
      loader: Loader;
      params: Record<string, string>;
      request: Request;
      routeId: string;
      singleFetch: boolean;
    }) => Promise<unknown>;
  };
  const { callRouteLoader } = createRequire(import.meta.url)(
    "@remix-run/server-runtime/dist/data.js",
  ) as DataModule;
  const requestSeenBy = async (request: Request) => {
    let seen: Request | undefined;
    await callRouteLoader({
      loadContext: {},
      loader: ({ request }) => ((seen = request), null),
      params: {},
      request,
      routeId: "root",
      singleFetch: true,
    });
    if (!seen) throw new Error("the loader was not called");
    return seen;
  };

  it("a request without ?index or ?_routes reaches the loader itself, not two copies of it", async () => {
    const request = new Request("http://shop.test/order-form/a?tab=pending&page=2");
    expect(await requestSeenBy(request)).toBe(request);
  });

  it("?index and ?_routes are still taken out of what the loader sees (the patch only skips copies of nothing)", async () => {
    const seen = await requestSeenBy(
      new Request("http://shop.test/admin/orders?index&_routes=root&tab=handled", {
        headers: { Cookie: "a=b" },
      }),
    );
    expect(seen.url).toBe("http://shop.test/admin/orders?tab=handled");
    expect(seen.headers.get("Cookie")).toBe("a=b");
  });
});
