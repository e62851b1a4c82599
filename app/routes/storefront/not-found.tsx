import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { notFound } from "~/server/http/not-found.server";

export const meta: MetaFunction = () => [{ title: "Page Not Found | コンテスト動画ショップ" }];

/**
 * Any path no other route claims: a real 404 status, rendered by the root error boundary. The
 * server entry also draws its refusals here (a cross-site post, a body too large): it hands
 * Remix a GET of a path nobody claims with the refusal in the context, so the visitor gets the
 * shop's own page with its status and message.
 */
export function loader({ context }: LoaderFunctionArgs) {
  if (context.refusal) throw data(context.refusal.message, { status: context.refusal.status });
  notFound();
}

export default function NotFound() {
  return null;
}
