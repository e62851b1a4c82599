import { env } from "~/server/core/env.server";
import { notFound } from "~/server/http/not-found.server";

/** Throws an uncaught error so tests can see the full-page fallback. Exists only with ENABLE_TEST_HOOKS=true. */
export function loader() {
  if (!env().ENABLE_TEST_HOOKS) notFound();
  throw new Error("test hook: deliberate failure");
}

export default function TestError() {
  return null;
}
