import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import Database from "better-sqlite3";
import { hashPassword } from "../../app/server/auth/password.server";
import { contestSlug } from "../../app/lib/rules/slug";
import { mintSessionCookie } from "../../scripts/mint-session.mjs";
import { freePort } from "../../scripts/bench/lib.mjs";

/**
 * Attacks on the server's edge, each named after what it tries, against a server of its
 * own started as `npm start` starts it: no proxy in front (TRUST_PROXY unset, so `none`), callers
 * told apart by their sockets. Two callers are two loopback addresses (127.0.0.2 and 127.0.0.3
 * are this machine too). HTTP only: run in the js project only (playwright.config.ts).
 */

const root = path.resolve(import.meta.dirname, "../..");
const SECRET = "edge-e2e-session-secret-0123456789abcdefghij";
const ATTACKER = "127.0.0.2";
const VICTIM = "127.0.0.3";

type Shop = { base: string; port: number; dbFile: string; stderr: () => string; child: ChildProcess };
let shop: Shop;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "edge-e2e-"));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    SITE_URL: base,
    DATABASE_PATH: path.join(work, "shop.db"),
    MEDIA_DIR: path.join(work, "media"),
    MAIL_DIR: path.join(work, "mail"),
    SESSION_SECRET: SECRET,
    ENCRYPTION_KEY: "edge-e2e-encryption-key-0123456789abcdefghij",
    PAYMENT_PROVIDER: "test",
  };
  delete env.TRUST_PROXY;
  await new Promise<void>((resolve, reject) =>
    spawn(process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/seed.ts"], {
      cwd: root,
      env,
      stdio: "ignore",
    }).on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`seed failed (${code})`)))),
  );
  let stderr = "";
  const child = spawn(process.execPath, ["server-build/index.js"], {
    cwd: root,
    env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  shop = { base, port, dbFile: path.join(work, "shop.db"), stderr: () => stderr, child };
  await expect
    .poll(
      () =>
        fetch(`${base}/healthz`).then(
          (r) => r.status,
          () => 0,
        ),
      { timeout: 30_000 },
    )
    .toBe(200);
});

test.afterAll(() => {
  shop?.child.kill("SIGTERM");
});

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string; ms: number };

/** One request from a given loopback address (the caller the edge sees). */
function send(
  from: string,
  method: string,
  pathname: string,
  options: { headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: "127.0.0.1",
        port: shop.port,
        localAddress: from,
        method,
        path: pathname,
        agent: false,
        headers: options.headers,
      },
      (response) => {
        const parts: Buffer[] = [];
        response.on("data", (part: Buffer) => parts.push(part));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(parts).toString("utf8"),
            ms: performance.now() - started,
          }),
        );
      },
    );
    request.on("error", reject);
    request.end(options.body);
  });
}

const form = (fields: Record<string, string>) => ({
  headers: { "Content-Type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
});

function query<T>(sql: string, ...params: unknown[]): T {
  const db = new Database(shop.dbFile, { readonly: true });
  try {
    return db.prepare(sql).get(...params) as T;
  } finally {
    db.close();
  }
}

async function createCustomer(email: string, password: string): Promise<number> {
  const db = new Database(shop.dbFile);
  try {
    const hash = await hashPassword(password);
    return Number(
      db
        .prepare("insert into users (email, name, password_hash) values (?, ?, ?)")
        .run(email, "山田 花子", hash).lastInsertRowid,
    );
  } finally {
    db.close();
  }
}

test("login flood: wrong passwords flooding from one address never make another address's login wait or get 429", async () => {
  test.setTimeout(120_000);
  await createCustomer("flood-alone@example.jp", "Victim-Password-2025");
  await createCustomer("flood-victim@example.jp", "Victim-Password-2025");
  const logIn = (email: string) =>
    send(VICTIM, "POST", "/login", form({ email, password: "Victim-Password-2025" }));
  // What a login costs on this machine now (a password hash is most of it): the yardstick.
  const alone = await logIn("flood-alone@example.jp");
  expect(alone.status).toBe(302);
  // The attacker keeps 60 wrong-password posts in flight (1,350 in 10 s filled the password-check
  // queue on the old server, and the other address's login got 429).
  let flooding = true;
  let attempts = 0;
  const attacker = async () => {
    while (flooding) {
      attempts++;
      await send(
        ATTACKER,
        "POST",
        "/login",
        form({ email: `nobody${attempts}@example.jp`, password: "wrong-password-1" }),
      ).catch(() => undefined);
    }
  };
  const flood = Array.from({ length: 60 }, attacker);
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const login = await logIn("flood-victim@example.jp");
  flooding = false;
  await Promise.all(flood);
  test.info().annotations.push({
    type: "login flood",
    description: `${attempts} attempts from ${ATTACKER}; a login from ${VICTIM}: ${Math.round(alone.ms)} ms alone, ${Math.round(login.ms)} ms under the flood (${login.status})`,
  });
  expect(login.status).toBe(302);
  expect(login.headers.location).toBe("/");
  // The machine's two cores are shared with the attacker's own client, his hashes (one slot of
  // two, shared fairly) and the suite's other worker, so the login takes longer than alone (here,
  // on a busy machine: 0.7 s alone, 3.6 s beside the flood), but not the queue of someone else's
  // sixty requests, nor a 429.
  expect(login.ms).toBeLessThan(alone.ms * 4 + 2_000);
});

test("draft flood: cookie-less order-form posts from one address store a bounded number of drafts; another address still orders", async () => {
  const { name, athleteId, category, formatId } = query<{
    name: string;
    athleteId: number;
    category: string;
    formatId: number;
  }>(
    `select c.name as name, a.id as athleteId, a.category as category, f.id as formatId
       from contests c join athletes a on a.contest_id = c.id join video_formats f on f.contest_id = c.id
      where c.video_published = 1 and a.video_status = '販売中' and a.vertical_video_price > 0 limit 1`,
  );
  const slug = contestSlug(name);
  const item = form({
    intent: "add",
    "items[0].category": category,
    "items[0].athleteId": String(athleteId),
    "items[0].formatId": String(formatId),
  });
  const drafts = () => query<{ n: number }>("select count(*) as n from checkouts").n;
  const before = drafts();
  for (let i = 0; i < 40; i++) await send(ATTACKER, "POST", `/order-form/${encodeURIComponent(slug)}`, item);
  const stored = drafts() - before;
  expect(stored).toBeGreaterThan(0);
  expect(stored).toBeLessThanOrEqual(30);
  const parent = await send(VICTIM, "POST", `/order-form/${encodeURIComponent(slug)}`, item);
  expect(parent.status).toBe(302);
  expect(drafts()).toBe(before + stored + 1);
});

test("chunked body: a 200 MiB chunked post is refused at its route's limit with 413 and the connection closed, not read to its end", async () => {
  test.setTimeout(60_000);
  const { sent, answer } = await new Promise<{ sent: number; answer: string }>((resolve) => {
    const socket = net.connect({ port: shop.port, host: "127.0.0.1", localAddress: ATTACKER });
    let sent = 0;
    let answer = "";
    socket.on("data", (data: Buffer) => (answer += data.toString("latin1")));
    socket.on("error", () => undefined);
    socket.on("close", () => resolve({ sent, answer }));
    socket.write(
      `POST /login HTTP/1.1\r\nHost: 127.0.0.1:${shop.port}\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n`,
    );
    const piece = Buffer.alloc(64 * 1024, "a");
    const framed = Buffer.concat([
      Buffer.from(`${piece.length.toString(16)}\r\n`),
      piece,
      Buffer.from("\r\n"),
    ]);
    const pump = () => {
      while (sent < 200 * 1024 * 1024 && !socket.destroyed) {
        sent += piece.length;
        if (!socket.write(framed)) return void socket.once("drain", pump);
      }
      if (!socket.destroyed) socket.end("0\r\n\r\n");
    };
    pump();
  });
  test.info().annotations.push({
    type: "chunked body",
    description: `${(sent / 1024 / 1024).toFixed(1)} MiB sent before the close`,
  });
  expect(answer.split("\r\n")[0]).toBe("HTTP/1.1 413 Payload Too Large");
  expect(answer.toLowerCase()).toContain("connection: close");
  // The form's limit is 64 KiB; what the client got into the socket before it closed is bounded by
  // the kernel's buffers and the linger (16 MiB at most), never the 200 MiB.
  expect(sent).toBeLessThan(40 * 1024 * 1024);
});

test("origin null: a page post with Origin: null or another site's origin gets 403 with the shop's own page, and no error is logged", async () => {
  const logged = shop.stderr().length;
  for (const origin of ["null", "https://evil.example"]) {
    const answer = await send(VICTIM, "POST", "/login", {
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: origin },
      body: "email=a%40example.jp&password=whatever-1",
    });
    expect(answer.status, origin).toBe(403);
    expect(answer.headers["content-type"], origin).toMatch(/^text\/html/);
    expect(answer.body, origin).toContain("このページ以外からの送信は受け付けられません");
    expect(answer.body, origin).toContain("コンテスト動画ショップ");
  }
  // Our own origin still posts (a wrong password: 401, the login form again).
  const own = await send(VICTIM, "POST", "/login", {
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: shop.base },
    body: "email=a%40example.jp&password=whatever-1",
  });
  expect(own.status).toBe(401);
  expect(shop.stderr().slice(logged)).toBe("");
});

test("api csrf: with an admin's cookie, a contest created from another origin or as a form is refused; JSON from our own origin is not", async () => {
  const admin = query<{ id: number }>("select id from users where is_admin = 1 limit 1");
  const at = Date.now();
  const cookie = await mintSessionCookie({
    databasePath: shop.dbFile,
    secret: SECRET,
    data: { userId: admin.id, loggedInAt: at, adminVerifiedAt: at },
  });
  const contests = () => query<{ n: number }>("select count(*) as n from contests").n;
  const before = contests();
  const attempts: Record<string, string>[] = [
    {
      Origin: "https://shop.example.evil",
      "Content-Type": "application/x-www-form-urlencoded",
      body: "name=CSRF大会",
    },
    {
      Origin: "https://sub.127.0.0.1.nip.io",
      "Content-Type": "application/json",
      body: '{"name":"CSRF大会"}',
    },
    { "Content-Type": "application/x-www-form-urlencoded", body: "name=CSRF大会" },
    { "Content-Type": "text/plain", body: '{"name":"CSRF大会"}' },
  ];
  for (const { body, ...headers } of attempts) {
    const answer = await send(VICTIM, "POST", "/api/video/contests", {
      headers: { ...headers, Cookie: cookie },
      body,
    });
    expect([403, 415], JSON.stringify(headers)).toContain(answer.status);
    expect(JSON.parse(answer.body), JSON.stringify(headers)).toMatchObject({ message: expect.any(String) });
  }
  expect(contests()).toBe(before);
  const own = await send(VICTIM, "POST", "/api/video/contests", {
    headers: { Origin: shop.base, "Content-Type": "application/json", Cookie: cookie },
    body: JSON.stringify({ name: "正しい大会" }),
  });
  expect(own.status).toBe(201);
  expect(contests()).toBe(before + 1);
});

test("render cache oracle: no answer tells whether a page was drawn recently for someone", async () => {
  for (let i = 0; i < 2; i++) {
    const home = await send(VICTIM, "GET", "/");
    expect(home.status).toBe(200);
    expect(home.headers["x-render-cache"]).toBeUndefined();
  }
});

/** A connection from `from` that has sent `head` (and whatever else follows): what it has received so far. */
function openConnection(from: string, head: string) {
  const socket = net.connect({ host: "127.0.0.1", port: shop.port, localAddress: from });
  let received = "";
  socket.on("data", (chunk: Buffer) => (received += chunk.toString("latin1")));
  socket.on("error", () => undefined);
  socket.write(head);
  const ended = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  return { socket, received: () => received, ended };
}

/** One request written as raw text (`Connection: close`): the whole answer as text. */
async function rawRequest(from: string, text: string): Promise<string> {
  const connection = openConnection(from, text);
  await Promise.race([connection.ended, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  connection.socket.destroy();
  return Buffer.from(connection.received(), "latin1").toString("utf8");
}

const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);

test("caller gate leak: requests dropped while they wait in their caller's line give their turns back; the address is served again", async () => {
  test.setTimeout(90_000);
  // An address of its own: the other tests' callers are not in its line.
  const caller = "127.0.0.4";
  const host = `127.0.0.1:${shop.port}`;
  for (let round = 0; round < 3; round++) {
    // Eight posts whose bodies never come hold the caller's eight turns...
    const posts = Array.from({ length: 8 }, () =>
      openConnection(
        caller,
        `POST /login HTTP/1.1\r\nHost: ${host}\r\nOrigin: ${shop.base}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\n`,
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    // ...32 pages wait behind them, and a 41st is refused at once...
    const pages = Array.from({ length: 32 }, () =>
      openConnection(caller, `GET / HTTP/1.1\r\nHost: ${host}\r\n\r\n`),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    if (round === 0) expect((await send(caller, "GET", "/")).status).toBe(429);
    // ...then the pages' callers give up, and so do the posts'.
    for (const page of pages) page.socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (const post of posts) post.socket.destroy();
    await Promise.all(posts.map((post) => post.ended));
    // They were waiting, never answered (on the old gate, from the second round on: 429 at once).
    expect(pages.map((page) => statusOf(page.received()))).toEqual(Array(32).fill(0));
  }
  // On the old gate every later request from the address got 429 (for as long as it was watched).
  const again = await Promise.all(Array.from({ length: 8 }, () => send(caller, "GET", "/")));
  expect(again.map((answer) => answer.status)).toEqual(Array(8).fill(200));
  // /metrics counts the refusal (read from this machine).
  const metrics = await (await fetch(`${shop.base}/metrics`)).text();
  expect(Number(/^shop_caller_gate_refusals_total (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(1);
  expect(metrics).toContain("shop_caller_gate_longest_wait_seconds");
});

test("odd request lines: an absolute URL is served as its path; TRACE and CONNECT 405; OPTIONS * 204; never 500 nor a stack trace", async () => {
  const before = shop.stderr().length;
  const absolute = await rawRequest(
    VICTIM,
    "GET http://example.com/?from=proxy HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n",
  );
  expect(statusOf(absolute)).toBe(200);
  expect(absolute).toContain("</html>");
  const answers = {
    trace: await rawRequest(VICTIM, `TRACE / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
    connect: await rawRequest(VICTIM, `CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n`),
    optionsAll: await rawRequest(VICTIM, `OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
    getAll: await rawRequest(VICTIM, `GET * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
    otherScheme: await rawRequest(
      VICTIM,
      `GET ftp://example.com/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    ),
  };
  expect(
    Object.fromEntries(Object.entries(answers).map(([name, answer]) => [name, statusOf(answer)])),
  ).toEqual({
    trace: 405,
    connect: 405,
    optionsAll: 204,
    getAll: 400,
    otherScheme: 400,
  });
  expect(answers.trace).toMatch(/^Allow: GET, HEAD, POST/im);
  expect(answers.optionsAll).toMatch(/^Allow: GET, HEAD, POST/im);
  // Security headers on these answers too.
  expect(answers.trace).toMatch(/^X-Content-Type-Options: nosniff/im);
  expect(shop.stderr().slice(before)).not.toMatch(/\[server\]|Error|at /);
});

test("proxy not announced: a forwarded request with TRUST_PROXY=none is warned of once, and /metrics then wants the token", async () => {
  const forwarded = { headers: { "X-Forwarded-For": "203.0.113.50" } };
  expect((await send(VICTIM, "GET", "/", forwarded)).status).toBe(200);
  expect((await send(VICTIM, "GET", "/", forwarded)).status).toBe(200);
  expect(shop.stderr().match(/X-Forwarded-For|x-forwarded-for/g)).toHaveLength(1);
  expect(shop.stderr()).toContain("TRUST_PROXY");
  // From this machine (a proxy's address) the forwarded scrape is nobody; the plain one is let in.
  expect((await send("127.0.0.1", "GET", "/metrics", forwarded)).status).toBe(404);
  expect((await send("127.0.0.1", "GET", "/metrics")).status).toBe(200);
});
