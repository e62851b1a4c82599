import type { AddressInfo } from "node:net";
import PostalMime from "postal-mime";
import { SMTPServer } from "smtp-server";

export type ReceivedMail = { to: string[]; subject: string; text: string; html: string };

/**
 * A real SMTP server on loopback that keeps what it receives, for tests to read codes and links from.
 * Give `port` to bring a stopped server back at the same address (the shop's SMTP_URL does not change).
 */
export async function startSmtpServer(port = 0, received: ReceivedMail[] = []) {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        PostalMime.parse(Buffer.concat(chunks))
          .then((mail) => {
            received.push({
              to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
              subject: mail.subject ?? "",
              text: mail.text ?? "",
              html: mail.html ?? "",
            });
            callback();
          })
          .catch(callback);
      });
    },
  });
  // A client that dies mid-conversation (the fault tests kill the shop) is not this server's failure.
  server.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "ECONNRESET") throw error;
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const address = server.server.address() as AddressInfo;
  return {
    port: address.port,
    url: `smtp://127.0.0.1:${address.port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
