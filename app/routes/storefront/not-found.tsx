import type { MetaFunction } from "@remix-run/node";

export const meta: MetaFunction = () => [{ title: "Page Not Found | コンテスト動画ショップ" }];

/** Any path no other route claims: a real 404 status, rendered by the root error boundary. */
export function loader() {
  throw new Response("Not Found", { status: 404 });
}

export default function NotFound() {
  return null;
}
