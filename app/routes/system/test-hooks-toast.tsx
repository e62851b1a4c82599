import type { LoaderFunctionArgs } from "@remix-run/node";
import { env } from "~/server/core/env.server";
import { redirectWithToast } from "~/server/http/toast.server";
import { notFound } from "~/server/http/not-found.server";

/** Flashes a toast and redirects home, so tests can see a server-rendered toast. Only with ENABLE_TEST_HOOKS=true. */
export function loader({ request }: LoaderFunctionArgs) {
  if (!env().ENABLE_TEST_HOOKS) notFound();
  return redirectWithToast(request, "/", {
    kind: "success",
    title: "テスト通知",
    description: "サーバーから届いた通知です",
  });
}
