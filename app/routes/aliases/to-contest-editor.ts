import { redirect, type LoaderFunctionArgs } from "@remix-run/node";

/** The spec's second address of the contest edit page. The admin check happens there. */
export function loader({ params }: LoaderFunctionArgs) {
  return redirect(`/admin/contest/${encodeURIComponent(params.id ?? "")}`);
}
