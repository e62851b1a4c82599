import type { MetaFunction } from "@remix-run/node";
import { notFound } from "~/server/http/not-found.server";

export const meta: MetaFunction = () => [{ title: "Page Not Found | コンテスト動画ショップ" }];

/** Any path no other route claims: a real 404 status, rendered by the root error boundary. */
export function loader() {
  notFound();
}

export default function NotFound() {
  return null;
}
