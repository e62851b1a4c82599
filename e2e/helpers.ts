import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { e2eWorkDir } from "./work-dir";

const mailDir = () => path.join(e2eWorkDir(), "received-mail");

export type ReceivedMail = { to: string[]; subject: string; text: string; html: string; receivedAt: number };

/** Every mail the test SMTP server has received for an address, oldest first. */
export function mailsTo(address: string): ReceivedMail[] {
  if (!fs.existsSync(mailDir())) return [];
  return fs
    .readdirSync(mailDir())
    .filter((name) => name.endsWith(".json"))
    .sort()
    .map((name) => JSON.parse(fs.readFileSync(path.join(mailDir(), name), "utf8")) as ReceivedMail)
    .filter((mail) => mail.to.includes(address.toLowerCase()));
}

/** Waits for the n-th mail (1-based) to an address. */
export async function waitForMail(address: string, count = 1): Promise<ReceivedMail> {
  await expect.poll(() => mailsTo(address).length, { timeout: 15_000 }).toBeGreaterThanOrEqual(count);
  const mail = mailsTo(address)[count - 1];
  if (!mail) throw new Error("mail vanished");
  return mail;
}

/** A unique address per test run, so parallel tests never read each other's mail. */
export function uniqueEmail(label: string): string {
  return `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}@example.jp`;
}

/** Whether this test runs in the project with JavaScript on. */
export function jsEnabled(): boolean {
  return test.info().project.use.javaScriptEnabled !== false;
}
