import { index, type RouteConfig } from "@remix-run/route-config";

export default [index("routes/index.tsx")] satisfies RouteConfig;
