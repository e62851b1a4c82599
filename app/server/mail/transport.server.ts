import fs from "node:fs";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import { now } from "../core/clock.server";
import { env } from "../core/env.server";
import type { RenderedMail } from "./layout.server";

let transporter: Transporter | undefined;

/**
 * SMTP when SMTP_URL is set; otherwise (development, demo) each mail is written as an
 * .eml file under MAIL_DIR and a line is logged, so codes can still be read.
 */
function transport(): Transporter {
  const { SMTP_URL } = env();
  transporter ??= SMTP_URL
    ? nodemailer.createTransport(SMTP_URL, {
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 20_000,
      })
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return transporter;
}

export async function sendMail(to: string, mail: RenderedMail): Promise<void> {
  const { MAIL_FROM, SMTP_URL, MAIL_DIR } = env();
  const info = await transport().sendMail({
    from: { name: "コンテスト動画ショップ", address: MAIL_FROM },
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
    await transport().verify();
    return { ok: true };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
