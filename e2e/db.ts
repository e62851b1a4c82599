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
