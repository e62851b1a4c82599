// A second process for the outbox race: its own SQLite connection to the same file.
// It says "ready" once loaded, waits for the go file, then runs retry passes until
// nothing is due, at the same moment as the test process.
import fs from "node:fs";
import { retryDueMail } from "~/server/mail/outbox.server";

const goFile = process.argv[2] ?? "";
process.stderr.write("ready\n");
while (!fs.existsSync(goFile)) await new Promise((resolve) => setTimeout(resolve, 5));
let sent = 0;
for (;;) {
  const pass = await retryDueMail();
  sent += pass.sent;
  if (pass.sent === 0 && pass.failed === 0) break;
}
process.stdout.write(JSON.stringify({ sent }));
