import { redirect } from "@remix-run/node";

/** One of the dashboard's other addresses. */
export function loader() {
  return redirect("/admin", 301);
}
