import { afterAll, beforeAll } from "vitest";
import { startSmtpServer, type ReceivedMail } from "./smtp";

/**
 * The SMTP server of one test file: started before its tests and named as the shop's SMTP_URL
 * (before anything reads the configuration), closed after them. What it receives is in `received`.
 * Kept apart from ./smtp, which the load and bench scripts import outside vitest (where importing
 * vitest throws).
 */
export function smtpServerForThisFile() {
  const received: ReceivedMail[] = [];
  let server: Awaited<ReturnType<typeof startSmtpServer>> | undefined;
  beforeAll(async () => {
    server = await startSmtpServer(0, received);
    process.env.SMTP_URL = server.url;
  });
  afterAll(() => server?.close());
  return { received };
}
