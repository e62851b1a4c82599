import fs from "node:fs";
import path from "node:path";
import type { Transporter } from "nodemailer";
import { now } from "../core/clock.server";
import { env } from "../core/env.server";
import { loadNodemailer } from "../core/lazy-modules.server";
import type { RenderedMail } from "./layout.server";
import { SHOP_NAME } from "~/lib/rules/shop";

let transporter: Transporter | undefined;

/**
 * SMTP when SMTP_URL is set; otherwise (development, demo) each mail is written as an
 * .eml file under MAIL_DIR and a line is logged, so codes can still be read.
 */
async function transport(): Promise<Transporter> {
  const { SMTP_URL } = env();
  const nodemailer = await loadNodemailer();
  transporter ??= SMTP_URL
    ? nodemailer.createTransport(smtpUrlWithTimeouts(SMTP_URL))
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return transporter;
}

/**
 * How long one SMTP conversation may hang, kept well under the outbox's claim lease
 * (CLAIM_LEASE_MS), so a stuck send is given up before another sender may take the mail.
 */
export const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

/**
 * The SMTP URL with the timeouts in its query, unless it sets its own. They must travel in the
 * URL: nodemailer reads a second argument next to a URL as message defaults, not as connection
 * options, which silently left its own 2- and 10-minute timeouts in force.
 */
export function smtpUrlWithTimeouts(url: string): string {
  const parsed = new URL(url);
  for (const [key, value] of Object.entries(SMTP_TIMEOUTS))
    if (!parsed.searchParams.has(key)) parsed.searchParams.set(key, String(value));
  return parsed.toString();
}

export async function sendMail(to: string, mail: RenderedMail): Promise<void> {
  const { MAIL_FROM, SMTP_URL, MAIL_DIR } = env();
  const info = await (
    await transport()
  ).sendMail({
    from: { name: SHOP_NAME, address: MAIL_FROM },
    to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
  });
  if (!SMTP_URL) {
    fs.mkdirSync(MAIL_DIR, { recursive: true });
    const file = path.join(
      MAIL_DIR,
      `${now().toISOString().replace(/[:.]/g, "-")}-${Math.random().toString(36).slice(2, 8)}.eml`,
    );
    fs.writeFileSync(file, (info as unknown as { message: Buffer }).message);
    console.log(`[mail] ${to} 「${mail.subject}」 → ${file}`);
  }
}

/** Whether the SMTP server answers (used by the mail help page). */
export async function verifyMailTransport(): Promise<{ ok: true } | { ok: false; error: string }> {
  if (!env().SMTP_URL) return { ok: true };
  try {
    await (await transport()).verify();
    return { ok: true };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
