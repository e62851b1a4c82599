// A second process for the outbox race: its own SQLite connection to the same file,
// running one pass of the retry loop at the same moment as the test process.
import { retryDueMail } from "~/server/mail/outbox.server";

const result = await retryDueMail();
process.stdout.write(JSON.stringify(result));
