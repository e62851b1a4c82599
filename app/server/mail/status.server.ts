import { now } from "../core/clock.server";
import { env } from "../core/env.server";
import { verifyMailTransport } from "./transport.server";
import { MINUTE_MS } from "~/lib/rules/tokyo-date";

/**
 * Whether the shop can send mail, as asked of the SMTP server itself. Asked at most once
 * a minute (the answer is kept in memory), and never for longer than a few seconds, so
 * the help page stays fast even when the mail server is down.
 */

export type MailStatus = {
  emailServiceActive: boolean;
  senderEmail: string;
  /**
   * The SMTP host only: never the user name, password or port from SMTP_URL. Null when mail is
   * written to files, and for anyone but a logged-in admin (`mailStatusFor`).
   */
  smtpServer: string | null;
  timestamp: string;
  error?: string;
};

export const MAIL_STATUS_CACHE_MS = MINUTE_MS;
const CHECK_TIMEOUT_MS = 5_000;
export const MAIL_CHECK_FAILED = "確認に失敗しました";

let cached: { at: number; status: Promise<MailStatus> } | null = null;

export function smtpHost(smtpUrl: string | undefined): string | null {
  if (!smtpUrl) return null;
  try {
    return new URL(smtpUrl).hostname || null;
  } catch {
    return null;
  }
}

async function check(): Promise<MailStatus> {
  const { SMTP_URL, MAIL_FROM } = env();
  const base = { senderEmail: MAIL_FROM, smtpServer: smtpHost(SMTP_URL), timestamp: now().toISOString() };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<{ ok: false; error: string }>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, error: "timeout" }), CHECK_TIMEOUT_MS);
  });
  const result = await Promise.race([verifyMailTransport(), timeout]).finally(() => clearTimeout(timer));
  if (result.ok) return { ...base, emailServiceActive: true };
  // The detail goes to the log; the page only says the check failed.
  console.error("[mail-status] SMTP check failed:", result.error);
  return { ...base, emailServiceActive: false, error: MAIL_CHECK_FAILED };
}

export function mailServiceStatus(): Promise<MailStatus> {
  const at = now().getTime();
  if (!cached || at - cached.at >= MAIL_STATUS_CACHE_MS || at < cached.at) {
    cached = { at, status: check() };
  }
  return cached.status;
}

/**
 * The status as a viewer may see it. The public (the help page, /api/email-status) learns
 * whether mail goes out and from which address, which the shop's mails show anyway, but not
 * which server sends it: the host names infrastructure to attack. A logged-in admin sees it.
 */
export async function mailStatusFor(viewer: { admin: boolean }): Promise<MailStatus> {
  const status = await mailServiceStatus();
  return viewer.admin ? status : { ...status, smtpServer: null };
}
