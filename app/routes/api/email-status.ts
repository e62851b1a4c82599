import type { LoaderFunctionArgs } from "@remix-run/node";
import { currentAdmin } from "~/server/auth/admin-session.server";
import { mailStatusFor } from "~/server/mail/status.server";

/** GET /api/email-status: whether mail goes out (checked against the SMTP server, kept 60 s). */
export async function loader({ request }: LoaderFunctionArgs) {
  const status = await mailStatusFor({ admin: (await currentAdmin(request)) !== null });
  return Response.json(status, { headers: { "Cache-Control": "no-store" } });
}
