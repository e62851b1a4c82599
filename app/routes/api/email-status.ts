import { mailServiceStatus } from "~/server/mail/status.server";

/** GET /api/email-status: whether mail goes out (checked against the SMTP server, kept 60 s). */
export async function loader() {
  return Response.json(await mailServiceStatus(), { headers: { "Cache-Control": "no-store" } });
}
