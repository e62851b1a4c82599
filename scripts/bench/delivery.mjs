// npm run bench:delivery — a contest's batch delivery (一括納品), timed over HTTP against the
// production build: 300 order lines in 150 orders from 120 families, 200 small files uploaded
// through the 納品ファイル tab's plain form, the matching screen, one 一括納品 (and a second one
// that must deliver nothing), the delivery mails counted at a real SMTP server on loopback, and
// the 制作リスト CSV of a contest with 2,000 athletes. The baseline is the order list page of
// the same contest (/admin/orders?contest=<id>) timed in the same run on the same server.
//
// Ratios are printed, not asserted (the machines are shared and noisy). The script fails on
// wrong results (orders delivered, mails per order, CSV rows) and on the absolute budgets below.
import fs from "node:fs";
import Database from "better-sqlite3";
import PostalMime from "postal-mime";
import { SMTPServer } from "smtp-server";
import { adminCookie, migratedShop, startServer, timeRequests } from "./lib.mjs";
import { SAMPLE_VIDEO, freeBoxHeader } from "./upload-lib.mjs";

// Budgets, generous on purpose (2 shared cores; the figures that matter are the ratios):
// - The matching screen is recomputed from the database and the file names on every load, and
//   the admin reloads it after each fix; past a second it stops feeling like a page.
const MATCHING_BUDGET_MS = 1_000;
// - 一括納品 is one request the admin presses once and waits for: one transaction writing 300
//   lines, 150 download pages and 150 queued mails (the mails go out after the answer). Five
//   seconds is long for a click but far from any proxy's timeout.
const DELIVER_BUDGET_MS = 5_000;
// - The CSV is one grouped query over a few thousand lines; a download may take a moment.
const CSV_BUDGET_MS = 1_000;
// - The delivery mails go out one SMTP conversation at a time after the answer; on loopback 150
//   of them take seconds. A minute without the last one means they are stuck, not slow.
const MAIL_WAIT_MS = 60_000;

const ATHLETES = 200;
const ORDERS = 150;
const FAMILIES = 120;
const LINES = 300;
/** Athlete × style combinations ordered at least once (the rest of the 300 lines share them). */
const ORDERED_KEYS = 207;
/** Ordered combinations whose video the editors have not finished: their orders stay 未対応. */
const MISSING_KEYS = 10;
/** Files whose names a camera gave them: shown as unmatched, deliver nothing. */
const JUNK_NAMES = ["IMG_2034.MOV", "DSC01234.mp4", "無題.mp4"];
const FILES = ORDERED_KEYS - MISSING_KEYS + JUNK_NAMES.length; // 200
const UPLOAD_BATCH = 50;
const CSV_ATHLETES = 2_000;

/** Deterministic, so every run seeds the same shop (mulberry32). */
function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = random(14);
const pick = (list) => list[Math.floor(rand() * list.length)];
function shuffle(list) {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [list[i], list[j]] = [list[j], list[i]];
  }
  return list;
}

// Names without 縦/横 (or their readings), so a name in a file name is never read as a style.
const FAMILY_NAMES = ["佐藤", "鈴木", "高橋", "田中", "伊藤", "渡辺", "山本", "中村", "小林", "加藤"];
const FAMILY_NAMES_2 = ["吉田", "山田", "佐々木", "松本", "井上", "木村", "林", "清水", "森", "池田"];
// prettier-ignore
const GIVEN_NAMES = [
  "花子", "太郎", "さくら", "結衣", "陽翔", "蓮", "美咲", "大翔", "葵", "湊",
  "凛", "悠真", "芽依", "陸", "詩織", "颯太", "杏", "樹", "心春", "奏",
];
/** Unique for the first 400 numbers: a name in a file name points at one athlete. */
function athleteName(n) {
  const family = [...FAMILY_NAMES, ...FAMILY_NAMES_2][(n - 1) % 20];
  return `${family} ${GIVEN_NAMES[Math.floor((n - 1) / 20) % 20]}`;
}
const CATEGORIES = ["幼児の部", "小学生の部", "中学生の部", "一般の部"];
const STYLE = { vertical: "縦", horizontal: "横" };
const key = (number, orientation) => `${number}:${orientation}`;

const fullWidth = (text) => text.replace(/[0-9]/g, (d) => String.fromCharCode(d.charCodeAt(0) + 0xfee0));
/** The forms editors actually give their exports (see tests/server/delivery/delivery-file-names.test.ts). */
function fileName(number, orientation, i) {
  const style = STYLE[orientation];
  const roman = { vertical: ["tate", "vertical"], horizontal: ["yoko", "horizontal"] }[orientation];
  switch (i % 8) {
    case 0:
      return `${number}_${style}.mp4`;
    case 1:
      return `${String(number).padStart(3, "0")}-${style}.mov`;
    case 2:
      return `No${number} ${style}.mp4`;
    case 3:
      return `${fullWidth(String(number))}＿${style}.mp4`;
    case 4:
      return `${number}_${roman[0]}.mp4`;
    case 5:
      return `${number}_${athleteName(number).replace(" ", "")}_${style}.mp4`;
    case 6:
      return `No.${number}_${roman[1]}.MP4`;
    default:
      return `ゼッケン${number}_${style}.mov`;
  }
}

const SAMPLE = fs.readFileSync(SAMPLE_VIDEO);

/**
 * A real video of its own (the shop probes every upload with ffprobe): the ~200 KB sample, then
 * a `free` box of a few KB whose bytes depend on i, so no two files are the same.
 */
function smallVideo(i) {
  const box = Buffer.alloc(2048 + ((i * 997) % 6144));
  freeBoxHeader(box.length).copy(box, 0);
  for (let j = 8; j < box.length; j++) box[j] = (i * 31 + j * 7) & 0xff;
  return Buffer.concat([SAMPLE, box]);
}

// ---------------------------------------------------------------------------------------------
// Seed: the delivery contest, and the 2,000-athlete contest of the CSV.

const { dir, dbFile, env: shopEnv } = await migratedShop("delivery");
const db = new Database(dbFile);
const seedStart = performance.now();
const insertOrder = db.prepare(
  "insert into orders (status_token, order_number, checkout_id, payment_intent_id, contest_id, contest_name, bib_number_label, customer_email, customer_name, total_amount, line_count, status, created_at) values (lower(hex(randomblob(16))), ?, ?, ?, ?, ?, 'ゼッケン番号', ?, ?, ?, ?, ?, ?)",
);
const insertLine = db.prepare(
  "insert into order_lines (order_id, line_number, contest_name, category, athlete_id, athlete_number, athlete_name, style, orientation, price, status, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, 5000, ?, ?)",
);
/** A contest with 縦 (first format: vertical) and 横 (second: horizontal); returns its id and athlete ids by number. */
function seedContest(name, slugKey, athleteCount, stopped = () => false) {
  const contestId = Number(
    db.prepare("insert into contests (name, slug_key) values (?, ?)").run(name, slugKey).lastInsertRowid,
  );
  db.prepare(
    "insert into video_formats (contest_id, name, display_order) values (?, '縦', 0), (?, '横', 1)",
  ).run(contestId, contestId);
  for (const category of CATEGORIES)
    db.prepare("insert into categories (contest_id, name, color) values (?, ?, '#c8102e')").run(
      contestId,
      category,
    );
  const athlete = db.prepare(
    "insert into athletes (contest_id, athlete_number, name, category, video_status, vertical_video_price, horizontal_video_price) values (?, ?, ?, ?, ?, 5000, 6000)",
  );
  const ids = new Map();
  for (let n = 1; n <= athleteCount; n++)
    ids.set(
      n,
      Number(
        athlete.run(contestId, n, athleteName(n), CATEGORIES[n % 4], stopped(n) ? "受注停止" : "販売中")
          .lastInsertRowid,
      ),
    );
  return { contestId, name, ids };
}
/** One paid order with its lines ([number, orientation] each). */
function seedOrder(contest, orderNumber, family, lines, status, createdAt) {
  const orderId = insertOrder.run(
    orderNumber,
    `bench-${orderNumber}`,
    `pi_bench_${orderNumber}`,
    contest.contestId,
    contest.name,
    `family${family}@example.jp`,
    `${FAMILY_NAMES[family % 10]} ${GIVEN_NAMES[family % 20]}`,
    lines.length * 5000,
    lines.length,
    status,
    createdAt,
  ).lastInsertRowid;
  lines.forEach(([number, orientation], i) =>
    insertLine.run(
      orderId,
      `${orderNumber}-${i + 1}`,
      contest.name,
      CATEGORIES[number % 4],
      contest.ids.get(number),
      number,
      athleteName(number),
      STYLE[orientation],
      orientation,
      status,
      createdAt,
    ),
  );
  return Number(orderId);
}

const adminId = Number(
  db
    .prepare(
      "insert into users (email, name, password_hash, is_admin) values ('bench-admin@example.jp', 'ベンチ', 'x', 1)",
    )
    .run().lastInsertRowid,
);
const DAY = 24 * 3600_000;
const recital = {};
const csvContest = {};
db.transaction(() => {
  // The recital: 150 orders (1–3 lines) from 120 families (30 of them order twice). Every one of
  // the 207 ordered athlete × style combinations is in some order; the other 93 lines order a
  // combination again (another family, a grandparent), so one file serves several lines.
  Object.assign(recital, seedContest("青葉ピアノ発表会2026", "aoba2026", ATHLETES));
  const allKeys = [];
  for (let n = 1; n <= ATHLETES; n++) allKeys.push([n, "vertical"], [n, "horizontal"]);
  const orderedKeys = shuffle(allKeys).slice(0, ORDERED_KEYS);
  const slots = shuffle(Array.from({ length: ORDERS }, (_, i) => Array(1 + (i % 3)).fill(i)).flat());
  if (slots.length !== LINES) throw new Error("the order sizes must add up to 300 lines");
  const linesOf = Array.from({ length: ORDERS }, () => []);
  slots.forEach((order, i) => {
    const taken = new Set(linesOf[order].map(([n, o]) => key(n, o)));
    let chosen = orderedKeys[i];
    while (!chosen || taken.has(key(...chosen))) chosen = pick(orderedKeys);
    linesOf[order].push(chosen);
  });
  const start = Date.now() - 10 * DAY;
  recital.orders = linesOf.map((lines, i) => {
    const orderNumber = String(26_000_001 + i);
    const family = i < FAMILIES ? i : i - FAMILIES; // families 0..29 order a second time
    return {
      id: seedOrder(recital, orderNumber, family, lines, "未対応", start + i * 3_600_000),
      orderNumber,
      email: `family${family}@example.jp`,
      lines,
    };
  });
  recital.missing = new Set(orderedKeys.slice(0, MISSING_KEYS).map(([n, o]) => key(n, o)));
  recital.files = orderedKeys
    .slice(MISSING_KEYS)
    .map(([n, o], i) => fileName(n, o, i))
    .concat(JUNK_NAMES);
  const linesPerKey = new Map();
  for (const [n, o] of linesOf.flat()) linesPerKey.set(key(n, o), (linesPerKey.get(key(n, o)) ?? 0) + 1);
  recital.sharedKeys = [...linesPerKey.values()].filter((count) => count > 1).length;

  // The CSV's contest: 2,000 athletes, three in four ordered (vertical, some horizontal too),
  // one order in three already delivered, every 50th athlete 受注停止.
  Object.assign(
    csvContest,
    seedContest("みなと市ダンスフェスティバル2026", "minato2026", CSV_ATHLETES, (n) => n % 50 === 0),
  );
  const lines = [];
  const keys = new Set();
  for (let n = 1; n <= CSV_ATHLETES; n++) {
    if (n % 4 === 0) continue;
    for (let k = 0; k <= n % 3; k++) lines.push([n, "vertical"]);
    if (n % 5 < 2) lines.push([n, "horizontal"]);
  }
  shuffle(lines);
  let orderCount = 0;
  for (let i = 0; i < lines.length;) {
    const size = 1 + Math.floor(rand() * 4);
    const orderLines = [];
    for (; i < lines.length && orderLines.length < size; i++) {
      orderLines.push(lines[i]);
      keys.add(key(...lines[i]));
    }
    seedOrder(
      csvContest,
      String(27_000_001 + orderCount),
      Math.floor(rand() * 1_500),
      orderLines,
      orderCount % 3 === 0 ? "納品済み" : "未対応",
      Date.now() - 30 * DAY + orderCount * 600_000,
    );
    orderCount++;
  }
  csvContest.lines = lines.length;
  csvContest.orders = orderCount;
  csvContest.rows = keys.size;
})();
db.close();

const expectedDelivered = recital.orders.filter((order) =>
  order.lines.every(([n, o]) => !recital.missing.has(key(n, o))),
);
console.log(
  `seeded in ${((performance.now() - seedStart) / 1000).toFixed(1)} s: ${ATHLETES} athletes, ${ORDERS} orders (${LINES} lines, ${FAMILIES} families, ${recital.sharedKeys} athlete × style ordered more than once); ${expectedDelivered.length} orders will be complete after the upload, ${ORDERS - expectedDelivered.length} miss one of ${MISSING_KEYS} videos`,
);
console.log(
  `CSV contest: ${CSV_ATHLETES} athletes, ${csvContest.orders} orders, ${csvContest.lines} lines, ${csvContest.rows} production rows`,
);

// ---------------------------------------------------------------------------------------------
// A real SMTP server on loopback (as tests/helpers/smtp.ts): keeps each mail's recipients,
// subject and arrival time.

const mails = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  logger: false,
  onData(stream, session, callback) {
    const chunks = [];
    stream.on("data", (chunk) => chunks.push(chunk));
    stream.on("end", () => {
      PostalMime.parse(Buffer.concat(chunks))
        .then((mail) => {
          mails.push({
            at: performance.now(),
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            subject: mail.subject ?? "",
          });
          callback();
        })
        .catch(callback);
    });
  },
});
// A client that hangs up mid-conversation (the shop stopped at the end) is not this server's failure.
smtp.on("error", (error) => {
  if (error.code !== "ECONNRESET") throw error;
});
await new Promise((resolve) => smtp.listen(0, "127.0.0.1", resolve));
const smtpUrl = `smtp://127.0.0.1:${smtp.server.address().port}`;

const failures = [];
const check = (ok, message) => {
  if (!ok) failures.push(message);
  return ok;
};
const ms = (value) => `${value.toFixed(1)} ms`;
const sleep = (millis) => new Promise((resolve) => setTimeout(resolve, millis));

let server;
let readDb;
try {
  server = await startServer({ ...shopEnv, SMTP_URL: smtpUrl, MAIL_FROM: "shop@example.jp" });
  readDb = new Database(dbFile, { readonly: true });
  const headers = { Cookie: await adminCookie(dbFile, adminId) };
  const tab = `${server.base}/admin/contest/${recital.contestId}/delivery`;
  const orderList = `${server.base}/admin/orders?contest=${recital.contestId}`;

  // Upload: the plain form (JavaScript off), several files per request as the file picker sends them.
  const uploadTimes = [];
  const uploadStart = performance.now();
  for (let i = 0; i < recital.files.length; i += UPLOAD_BATCH) {
    const form = new FormData();
    recital.files
      .slice(i, i + UPLOAD_BATCH)
      .forEach((name, j) => form.append("files", new Blob([smallVideo(i + j)], { type: "video/mp4" }), name));
    const start = performance.now();
    const response = await fetch(`${tab}?intent=upload`, {
      method: "POST",
      headers,
      body: form,
      redirect: "manual",
    });
    await response.arrayBuffer();
    uploadTimes.push(performance.now() - start);
    if (response.status !== 303)
      throw new Error(`upload batch ${i / UPLOAD_BATCH + 1} answered ${response.status}`);
  }
  const uploadTotal = performance.now() - uploadStart;
  const stored = readDb
    .prepare("select count(*) n from delivery_files where contest_id = ? and retired_at is null")
    .get(recital.contestId).n;
  check(stored === FILES, `${stored} files stored, ${FILES} uploaded`);

  const first = await fetch(tab, { headers });
  const html = await first.text();
  check(
    first.ok && html.includes(`${expectedDelivered.length} 件の注文`),
    `the matching screen does not offer to deliver the ${expectedDelivered.length} complete orders (${first.status})`,
  );

  // Both pages warmed alike first, so the baseline is not the one paying for the server's warm-up.
  for (let i = 0; i < 10; i++)
    for (const url of [orderList, tab]) await (await fetch(url, { headers })).arrayBuffer();
  const baseline = await timeRequests(orderList, headers);
  const ratio = (value) => `${(value / baseline.median).toFixed(1)}× the order list`;
  const matching = await timeRequests(tab, headers);

  // 一括納品, once for real: it cannot be repeated with the same effect, so it is one sample.
  const mailsBefore = mails.length;
  const deliverStart = performance.now();
  const delivered = await fetch(tab, {
    method: "POST",
    headers: { ...headers, "Content-Type": "application/x-www-form-urlencoded" },
    body: "intent=deliver-all",
    redirect: "manual",
  });
  await delivered.arrayBuffer();
  const deliverAnswered = performance.now();
  const deliverMs = deliverAnswered - deliverStart;
  check(delivered.status === 303, `一括納品 answered ${delivered.status}`);

  const expectedMails = mailsBefore + expectedDelivered.length;
  while (mails.length < expectedMails && performance.now() - deliverAnswered < MAIL_WAIT_MS) await sleep(50);
  const lastMailAt = mails.at(-1)?.at ?? deliverAnswered;
  await sleep(2_000); // a mail too many would arrive now
  const deliveryMails = mails.slice(mailsBefore);

  const deliveredRows = readDb
    .prepare(
      "select id, order_number, customer_email from orders where contest_id = ? and status = '納品済み'",
    )
    .all(recital.contestId);
  const expectedIds = new Set(expectedDelivered.map((order) => order.id));
  check(
    deliveredRows.length === expectedDelivered.length &&
      deliveredRows.every((row) => expectedIds.has(row.id)),
    `${deliveredRows.length} orders 納品済み, ${expectedDelivered.length} expected (those with a file for every line)`,
  );
  const perOrder = new Map();
  for (const mail of deliveryMails) {
    const number = /注文番号 (\d+)/.exec(mail.subject)?.[1] ?? "?";
    perOrder.set(number, [...(perOrder.get(number) ?? []), mail]);
  }
  check(
    deliveryMails.length === expectedDelivered.length,
    `${deliveryMails.length} mails arrived for ${expectedDelivered.length} delivered orders`,
  );
  const onePerOrder = check(
    perOrder.size === deliveredRows.length &&
      deliveredRows.every((row) => {
        const received = perOrder.get(row.order_number) ?? [];
        return received.length === 1 && received[0].to.join() === row.customer_email;
      }),
    "not exactly one delivery mail per delivered order, to its customer",
  );
  const outbox = readDb
    .prepare("select status, count(*) n from mail_outbox group by status")
    .all()
    .map((row) => `${row.status} ${row.n}`)
    .join(", ");
  const unsent = readDb.prepare("select count(*) n from mail_outbox where status != 'sent'").get().n;
  check(unsent === 0, `mails left in the outbox: ${outbox}`);
  const servingSeveral = readDb
    .prepare(
      "select count(*) n from (select delivery_file_id from order_lines where delivery_file_id is not null group by delivery_file_id having count(*) > 1)",
    )
    .get().n;

  // The second 一括納品 finds nothing complete and open: no order changes, no mail.
  const againStart = performance.now();
  const again = await fetch(tab, {
    method: "POST",
    headers: { ...headers, "Content-Type": "application/x-www-form-urlencoded" },
    body: "intent=deliver-all",
    redirect: "manual",
  });
  await again.arrayBuffer();
  const againMs = performance.now() - againStart;
  check(again.status === 303, `the second 一括納品 answered ${again.status}`);
  await sleep(3_000);
  const mailsAfterSecond = mails.length - mailsBefore - deliveryMails.length;
  check(mailsAfterSecond === 0, `the second 一括納品 sent ${mailsAfterSecond} mails`);
  const outboxRows = readDb.prepare("select count(*) n from mail_outbox").get().n;
  check(
    outboxRows === expectedDelivered.length,
    `${outboxRows} mails in the outbox after the second 一括納品`,
  );

  const matchingAfter = await timeRequests(tab, headers);
  const orderListAfter = await timeRequests(orderList, headers);

  // The 制作リスト CSV of 2,000 athletes.
  const csvUrl = `${server.base}/admin/contest/${csvContest.contestId}/production.csv`;
  const csvResponse = await fetch(csvUrl, { headers });
  const csvBytes = Buffer.from(await csvResponse.arrayBuffer());
  const hasBom = csvBytes[0] === 0xef && csvBytes[1] === 0xbb && csvBytes[2] === 0xbf;
  check(
    csvResponse.ok && hasBom,
    `the CSV answered ${csvResponse.status} ${hasBom ? "with" : "without"} a BOM`,
  );
  // No field holds a line break here, so lines are rows: the header and one per athlete × style.
  const csvRows = csvBytes.toString("utf8").split("\r\n").filter(Boolean).length - 1;
  check(csvRows === csvContest.rows, `the CSV has ${csvRows} rows, ${csvContest.rows} expected`);
  const csv = await timeRequests(csvUrl, headers);

  const matchingOk = check(
    matching.median < MATCHING_BUDGET_MS && matchingAfter.median < MATCHING_BUDGET_MS,
    `the matching screen's median is over ${MATCHING_BUDGET_MS} ms`,
  );
  const deliverOk = check(deliverMs < DELIVER_BUDGET_MS, `一括納品 took over ${DELIVER_BUDGET_MS} ms`);
  const mailOk = deliveryMails.length === expectedDelivered.length && onePerOrder && unsent === 0;
  const csvOk = check(csv.median < CSV_BUDGET_MS, `the CSV's median is over ${CSV_BUDGET_MS} ms`);
  const mark = (ok) => (ok ? "✓" : "✗");

  console.log(
    `baseline 動画注文一覧 of the contest (${ORDERS} open orders, 20 a page): median ${ms(baseline.median)}, p95 ${ms(baseline.p95)}`,
  );
  const uploadPost = uploadTimes.toSorted((a, b) => a - b)[Math.floor(uploadTimes.length / 2)];
  console.log(
    `${mark(stored === FILES)} upload, plain form: ${FILES} files in ${uploadTimes.length} posts of ${UPLOAD_BATCH}, ${ms(uploadTotal)} in all; a post: median ${ms(uploadPost)} (${ratio(uploadPost)})`,
  );
  console.log(
    `${mark(matchingOk)} 納品ファイル matching screen, before (${FILES} waiting files, ${(html.length / 1024).toFixed(0)} KiB HTML): median ${ms(matching.median)} (${ratio(matching.median)}), p95 ${ms(matching.p95)} — budget median < ${MATCHING_BUDGET_MS} ms`,
  );
  console.log(
    `${mark(deliverOk)} 一括納品: ${ms(deliverMs)} (${ratio(deliverMs)}) for ${deliveredRows.length} orders (${servingSeveral} files serve more than one line) — budget < ${DELIVER_BUDGET_MS} ms`,
  );
  console.log(
    `${mark(mailOk)} delivery mails: ${deliveryMails.length} for ${deliveredRows.length} orders, one each; the last arrived ${ms(lastMailAt - deliverAnswered)} after the answer (${ms(lastMailAt - deliverStart)} after the press, ${ms((lastMailAt - deliverAnswered) / Math.max(1, deliveryMails.length))} a mail, of which 100 ms is the loopback server's own pause before its greeting); outbox: ${outbox}`,
  );
  console.log(
    `${mark(mailsAfterSecond === 0 && again.status === 303)} second 一括納品: ${ms(againMs)} (${ratio(againMs)}), ${mailsAfterSecond} mails`,
  );
  console.log(
    `${mark(matchingAfter.median < MATCHING_BUDGET_MS)} 納品ファイル matching screen, after (${FILES - JUNK_NAMES.length} delivered files, ${JUNK_NAMES.length} unmatched): median ${ms(matchingAfter.median)} (${ratio(matchingAfter.median)}), p95 ${ms(matchingAfter.p95)}; the order list then: median ${ms(orderListAfter.median)}`,
  );
  console.log(
    `${mark(csvOk && csvRows === csvContest.rows && hasBom)} 制作リスト CSV, ${CSV_ATHLETES} athletes (${csvRows} rows, ${(csvBytes.length / 1024).toFixed(0)} KiB, BOM): median ${ms(csv.median)} (${ratio(csv.median)}), p95 ${ms(csv.p95)} — budget median < ${CSV_BUDGET_MS} ms`,
  );
  for (const failure of failures) console.error(`✗ ${failure}`);
  process.exitCode = failures.length ? 1 : 0;
} finally {
  readDb?.close();
  await server?.stop();
  await new Promise((resolve) => smtp.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
}
