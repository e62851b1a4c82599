import crypto from "node:crypto";
import { e2eDbFile } from "./work-dir";
import Database from "better-sqlite3";
import { expect, test, type Browser, type BrowserContext, type Locator, type Page } from "@playwright/test";
import { fastHashPassword } from "../../tests/helpers/fast-password";
import { jsEnabled } from "./helpers";

/** The e2e server's database, writable: for making users and orders a test needs, faster than the UI. */
function writableDb() {
  return new Database(e2eDbFile(), {
    fileMustExist: true,
  });
}

export async function createUserInDb(email: string, password: string, name = "山田 花子"): Promise<number> {
  // A hash at a tiny cost, as createUser's (users.ts says why).
  const hash = await fastHashPassword(password);
  const db = writableDb();
  try {
    return Number(
      db.prepare("insert into users (email, name, password_hash) values (?, ?, ?)").run(email, name, hash)
        .lastInsertRowid,
    );
  } finally {
    db.close();
  }
}

export function setFailedLogins(email: string, count: number) {
  const db = writableDb();
  try {
    // A run of failures is counted from its latest (15 quiet minutes start a fresh one): just now.
    db.prepare(
      "update users set failed_login_count = ?, last_failed_login_at = ?, locked_until = null where email = ?",
    ).run(count, Date.now(), email);
  } finally {
    db.close();
  }
}

export type TestLine = {
  category: string;
  athleteNumber: number;
  style: string;
  price: number;
  url?: string;
};

/** An order as the checkout would have stored it, for the purchase-history tests. */
export function insertOrder(email: string, lines: TestLine[], createdAt = Date.now()): string {
  const orderNumber = `9${String(Math.floor(Math.random() * 10_000_000)).padStart(7, "0")}`;
  const db = writableDb();
  try {
    const id = db
      .prepare(
        `insert into orders (status_token, order_number, checkout_id, payment_intent_id, contest_name, bib_number_label, customer_email, customer_name, total_amount, created_at)
         values (lower(hex(randomblob(16))), ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        orderNumber,
        `e2e-${orderNumber}`,
        `pi_e2e_${orderNumber}`,
        "青葉ピアノ発表会 2025",
        "演奏順",
        email,
        "山田 花子",
        lines.reduce((sum, l) => sum + l.price, 0),
        createdAt,
      ).lastInsertRowid;
    lines.forEach((line, index) => {
      db.prepare(
        `insert into order_lines (order_id, line_number, contest_name, category, athlete_number, athlete_name, style, orientation, price, video_download_url, created_at)
         values (?, ?, ?, ?, ?, ?, ?, 'vertical', ?, ?, ?)`,
      ).run(
        id,
        `${orderNumber}-${index + 1}`,
        "青葉ピアノ発表会 2025",
        line.category,
        line.athleteNumber,
        "山田 一郎",
        line.style,
        line.price,
        line.url ?? null,
        createdAt,
      );
    });
    // A delivered order has its download page, as 納品 makes it: history links go through it.
    if (lines.some((line) => line.url)) {
      db.prepare("insert into download_pages (id, order_id, created_at, expires_at) values (?, ?, ?, ?)").run(
        crypto.randomBytes(16).toString("base64url"),
        id,
        createdAt,
        createdAt + 30 * 24 * 60 * 60_000,
      );
    }
    return orderNumber;
  } finally {
    db.close();
  }
}

/** Each test looks like a different client address, so per-address limits never leak between tests. */
export function randomIp(): string {
  return `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;
}

/** A second browser, with the same JavaScript setting as this project. */
export async function otherBrowser(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: test.info().project.use.baseURL,
    javaScriptEnabled: jsEnabled(),
    locale: "ja-JP",
    timezoneId: "Asia/Tokyo",
  });
  await context.setExtraHTTPHeaders({ "X-Forwarded-For": randomIp() });
  return context;
}

export function codeFrom(text: string): string {
  const match = /\b(\d{6})\b/.exec(text);
  if (!match?.[1]) throw new Error(`no code in mail: ${text}`);
  return match[1];
}

export async function enterCode(page: Page | Locator, code: string) {
  const boxes = page.getByRole("group", { name: "6桁の認証コード" }).getByRole("textbox");
  for (let i = 0; i < 6; i++) await boxes.nth(i).fill(code[i] ?? "");
}

export async function logIn(page: Page, email: string, password: string) {
  await page.getByLabel("メールアドレス").fill(email);
  await page.getByLabel("パスワード", { exact: true }).fill(password);
  await page.getByRole("button", { name: "ログイン", exact: true }).click();
}

export async function expectLoggedOut(page: Page) {
  await expect(page.getByRole("banner").getByRole("link", { name: "ログイン/新規登録" })).toBeVisible();
}

/**
 * Makes the account look as the checkout's auto-login leaves it when the address had earlier
 * orders: the address unconfirmed, and an earlier-orders link whose token is returned.
 */
export function holdEarlierOrdersInDb(email: string): string {
  const token = crypto.randomBytes(32).toString("base64url");
  const db = writableDb();
  try {
    const { id } = db
      .prepare("update users set address_unconfirmed = 1 where email = ? returning id")
      .get(email) as {
      id: number;
    };
    db.prepare(
      "insert into mail_links (purpose, user_id, token_hash, expires_at) values ('address-confirmation', ?, ?, ?)",
    ).run(id, crypto.createHash("sha256").update(token).digest("hex"), Date.now() + 86_400_000);
  } finally {
    db.close();
  }
  return token;
}
