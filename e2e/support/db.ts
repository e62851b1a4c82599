import { e2eDbFile } from "./work-dir";
import Database from "better-sqlite3";

/** Writes for what a test sets up directly (another admin's change, what other tabs own). */
export function withDb<T>(work: (db: Database.Database) => T): T {
  const db = new Database(e2eDbFile());
  db.pragma("busy_timeout = 5000");
  try {
    return work(db);
  } finally {
    db.close();
  }
}

/** A time a year ahead: what a held job waits for. */
export const HELD_UNTIL = Date.now() + 365 * 86_400_000;

/**
 * Holds the contest's delivery jobs (of `kinds`) as they are queued, as a busy queue would, so a
 * test sees the page before the server's worker has made what they make; `release` lets them run.
 */
export function holdDeliveryJobs(contestId: number, kinds: ("poster" | "phone")[] = ["poster", "phone"]) {
  const trigger = `hold_delivery_jobs_${contestId}`;
  const list = kinds.map((kind) => `'${kind}'`).join(", ");
  /** The contest's delivery jobs of those kinds; `row` is the trigger's `new.` or nothing. */
  const ofContest = (row = "") =>
    `${row}subject = 'delivery' and ${row}kind in (${list}) and ${row}subject_id in
       (select id from delivery_files where contest_id = ${contestId})`;
  withDb((db) =>
    db.exec(
      `create trigger ${trigger} after insert on media_jobs when ${ofContest("new.")}
       begin update media_jobs set next_attempt_at = ${HELD_UNTIL} where id = new.id; end`,
    ),
  );
  return () =>
    withDb((db) => {
      db.exec(`drop trigger if exists ${trigger}`);
      db.prepare(`update media_jobs set next_attempt_at = ? where status = 'waiting' and ${ofContest()}`).run(
        Date.now(),
      );
    });
}

/** Read-only access to the e2e server's database, to check what a flow stored. */
export function e2eDb() {
  return new Database(e2eDbFile(), {
    readonly: true,
    fileMustExist: true,
  });
}

export type OrderRow = {
  id: number;
  order_number: string;
  customer_email: string;
  customer_name: string;
  total_amount: number;
  status: string;
  contest_name: string;
};
export type OrderLineRow = {
  line_number: string;
  category: string;
  athlete_number: number;
  style: string;
  price: number;
};

export function ordersFor(email: string): { order: OrderRow; lines: OrderLineRow[] }[] {
  const db = e2eDb();
  try {
    const orders = db
      .prepare("select * from orders where customer_email = ? order by id")
      .all(email) as OrderRow[];
    return orders.map((order) => ({
      order,
      lines: db
        .prepare(
          "select line_number, category, athlete_number, style, price from order_lines where order_id = ? order by id",
        )
        .all(order.id) as OrderLineRow[],
    }));
  } finally {
    db.close();
  }
}
