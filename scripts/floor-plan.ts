/**
 * The floor plan of app/server (ARCHITECTURE.md, "Layout"; decision 0044): each folder stands on a
 * floor, and a value import goes down, or sideways within a floor, never up; and no two folders
 * import each other, no folders import in a loop. Type-only imports are erased at build time and
 * may cross. The table is checked by tests/scripts/floor-plan.test.ts and measured by
 * scripts/folder-imports.ts.
 */
import fs from "node:fs";
import path from "node:path";

type Floor = {
  name: string;
  says: string;
  /** Each folder of the floor with what it holds, as docs/README.md's folder map says it. */
  folders: Record<string, string>;
};

/**
 * Lowest first. A folder may import any folder of a lower floor, and of its own without a loop.
 * A folder named inside another (orders/admin) is a unit of its own; "(root)" is the files beside
 * the folders (ROOT_FILES).
 */
export const FLOORS: Floor[] = [
  {
    name: "core",
    says: "configuration, the clock, secrets, the seller, the disk",
    folders: {
      core:
        "configuration (env/), the clock, secret encryption, the seller's details, the shop's own addresses " +
        "(siteUrl), the disks' room and reserve, writes that found no room, byte sniffing, A4 PDFs in the shop's font",
    },
  },
  {
    name: "data",
    says: "the schema and the connection",
    folders: { db: "drizzle schema, the SQLite connection, LIKE escaping" },
  },
  {
    name: "platform",
    says: "requests and answers, stored files, mail, the payment providers",
    folders: {
      http: "sessions, toasts, form and JSON bodies, rate limits and client address, the HTML stream, security headers, 404",
      files: "the storage interface (folder or bucket), stored names, multipart reading, Range responses",
      mail: "outbox, SMTP/.eml transport, mail layout, SMTP status",
      payments: "the provider interface, Stripe, the test provider (テストモード)",
    },
  },
  {
    name: "rules",
    says: "who may do what, what is for sale and at what price",
    folders: {
      accounts:
        "registration, password change and reset, one-time mail links, an account's earlier orders, user admin",
      auth: "users, passwords, the admin session, the security dashboard and what it reads of the protections",
      catalog: "contests, publication, contest settings, athletes, their prices, the admin contest list",
      promotions:
        "早割, セット割, まとめ割, an order's price with them, coupons and their uses, クーポン管理",
    },
  },
  {
    name: "flows",
    says: "what happens to an order, a video, a copy of the database",
    folders: {
      checkout:
        "order form and drafts, checkout steps, payment, payment recovery, Stripe webhook, a coupon at checkout",
      orders:
        "the order core: orders and their numbers, a payment becoming its order once, konbini vouchers, business days",
      refunds:
        "refunds through the provider, the provider's reports, the ledger of stray payments, and their views " +
        "(the customer's refunds, the back-office's ledger)",
      delivery:
        "the 制作リスト and its CSV, delivery files, matching, 一括納品, 納品 and 完了, their clean-up",
      media:
        "uploads, media library, public catalogue, cover, media API helpers, probing, a contest's deletion",
      backups:
        "Litestream's configuration and lag; the scheduled snapshots: taken, kept (bucket or folder), pruned, reported; fetched for a restore",
      reminders:
        "reminder mails before a konbini voucher's deadline and a download page's end: what is due by the clock, " +
        "the pass that queues each once, the stop link",
    },
  },
  {
    name: "views",
    says: "the back-office's and the customer's order screens, sales, receipts, flyers",
    folders: {
      "orders/admin":
        "動画注文一覧 (the order list, its actions, お断り, 納品's form) and the order page with its refund steps",
      "orders/customer": "注文状況, the download page and its videos, 注文状況の確認, the purchase history",
      sales: "売上集計 and its CSV",
      receipts: "領収書: issuing, reissuing, the refunds on it, the PDF",
      flyers:
        "a contest's A4 flyer for the venue: its order form as a QR code, the 合言葉, the sales and prices",
    },
  },
  {
    name: "composition",
    says: "start-up, the app's edge, what /metrics reads of everyone",
    folders: {
      "(root)": "the files beside the folders (ROOT_FILES)",
      metrics: "/metrics (prom-client: requests, queues, disk, orders) and /readyz's checks",
    },
  },
];

/** The files beside the folders of app/server: the composition root. */
export const ROOT_FILES: Record<string, string> = {
  "startup.server.ts": "the one module that wires everything at start-up",
  "edge.server.ts": "the app's side of the server entry (server/index.ts): body limits, headers, shutdown",
};

/** Folders inside a folder that belong to it (its unit on the plan), for the folder map only. */
export const ROOMS: Record<string, string> = {
  "core/env": "one module per group of settings, and the report that stops a bad configuration",
  "auth/login": "customer and admin login, logIn/logOut, lockouts, device cookies, login events",
  "auth/second-factor":
    "the admin's second factor, TOTP, setting up the authenticator, the second factor's lock",
  "auth/codes":
    "mailed six-digit codes and links (sendCodeMail, requestMailedLink), their caps and limits' messages",
  "auth/tokens": "API tokens and the API's admin check (requireApiAdmin)",
  "mail/templates": "one file per mail",
  "delivery/plan": "一括納品's plan: which open orders each pooled file completes",
  "delivery/file-names": "reading an athlete's number, name and style from a delivery file's name",
  "media/jobs": "the media job queue: posters, phone versions, their time limits",
};

const MAP_INDENT = 4;
const MAP_COLUMN = 23;
const MAP_WIDTH = 112;

/** One entry of the folder map: its name padded to the column, its words wrapped under it. */
function mapEntry(depth: number, name: string, words: string): string[] {
  const lines: string[] = [];
  let line = `${" ".repeat(MAP_INDENT + depth * 2)}${name}`.padEnd(MAP_COLUMN - 1) + " ";
  let first = true;
  for (const word of words.split(" ")) {
    const fits = line.length + word.length + (first ? 0 : 1) <= MAP_WIDTH;
    if (!fits && !first) {
      lines.push(line);
      line = " ".repeat(MAP_COLUMN);
      first = true;
    }
    line += (first ? "" : " ") + word;
    first = false;
  }
  return [...lines, line];
}

/**
 * The app/server part of docs/README.md's folder map, made from the plan (tests/docs checks the
 * page has it; `npx tsx scripts/folder-imports.ts --map` prints it): the root files, then the
 * folders floor by floor, lowest first, each with the folders inside it.
 */
export function serverFolderMap(): string[] {
  const lines = ["  server/"];
  for (const [file, words] of Object.entries(ROOT_FILES)) lines.push(...mapEntry(0, file, words));
  const inside = { ...ROOMS };
  for (const floor of FLOORS)
    for (const [folder, words] of Object.entries(floor.folders))
      if (folder.includes("/")) inside[folder] = words;
  for (const floor of FLOORS)
    for (const [folder, words] of Object.entries(floor.folders)) {
      if (folder === "(root)" || folder.includes("/")) continue;
      lines.push(...mapEntry(0, `${folder}/`, words));
      for (const [room, roomWords] of Object.entries(inside))
        if (room.startsWith(`${folder}/`))
          lines.push(...mapEntry(1, `${room.slice(folder.length + 1)}/`, roomWords));
    }
  return lines;
}

export const root = path.resolve(import.meta.dirname, "..");
const serverRoot = path.join(root, "app/server");

function filesUnder(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return filesUnder(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Folders the plan names below a folder of its own (orders/admin): they stand on floors of their own. */
const NESTED = FLOORS.flatMap((floor) => Object.keys(floor.folders)).filter((folder) => folder.includes("/"));

/**
 * The folder of app/server a file is in: a nested folder the plan names, else its first segment,
 * or "(root)" for a file beside them.
 */
export function folderOf(file: string): string | null {
  const relative = path.relative(serverRoot, file).split(path.sep).join("/");
  if (relative.startsWith("..")) return null;
  const nested = NESTED.find((folder) => relative.startsWith(`${folder}/`));
  if (nested) return nested;
  const [first, ...rest] = relative.split("/");
  return rest.length === 0 ? "(root)" : first!;
}

/** The value imports of a source text (static, re-exports and dynamic): `import type` and type-only names left out. */
export function valueImports(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/^(?:import|export)\s+(type\s+)?([^;]*?)\s+from\s+["']([^"']+)["']/gms)) {
    if (match[1]) continue;
    const clause = match[2] ?? "";
    const names = /^\{([^}]*)\}$/.exec(clause.trim())?.[1];
    const onlyTypes =
      names !== undefined &&
      names
        .split(",")
        .map((name) => name.trim())
        .filter(Boolean)
        .every((name) => name.startsWith("type "));
    if (!onlyTypes) found.push(match[3]!);
  }
  for (const match of text.matchAll(/import\(\s*["']([^"']+)["']\s*\)/g)) found.push(match[1]!);
  return found;
}

export type FolderImport = { from: string; to: string; file: string; specifier: string };

/** Every value import from one folder of app/server to another. */
export function folderImports(): FolderImport[] {
  const found: FolderImport[] = [];
  for (const file of filesUnder(serverRoot)) {
    const from = folderOf(file)!;
    for (const specifier of valueImports(fs.readFileSync(file, "utf8"))) {
      const target = specifier.startsWith("~/")
        ? path.join(root, "app", specifier.slice(2))
        : specifier.startsWith(".")
          ? path.resolve(path.dirname(file), specifier)
          : null;
      const to = target ? folderOf(target) : null;
      if (to && to !== from) found.push({ from, to, file: path.relative(root, file), specifier });
    }
  }
  return found;
}

const floorOf = new Map(
  FLOORS.flatMap((floor, rank) => Object.keys(floor.folders).map((folder) => [folder, rank] as const)),
);

/** Whether the plan lets `from` import `to`: down, or sideways (loops are found apart). */
export function allowed(from: string, to: string): boolean {
  const [a, b] = [floorOf.get(from), floorOf.get(to)];
  return a !== undefined && b !== undefined && b <= a;
}

/** The loops among folders (strongly connected components of more than one), each sorted. */
export function loopsOf(edges: Map<string, Set<string>>): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const loops: string[][] = [];
  const connect = (folder: string): void => {
    indexOf.set(folder, index);
    low.set(folder, index++);
    stack.push(folder);
    for (const next of edges.get(folder) ?? []) {
      if (!indexOf.has(next)) {
        connect(next);
        low.set(folder, Math.min(low.get(folder)!, low.get(next)!));
      } else if (stack.includes(next)) low.set(folder, Math.min(low.get(folder)!, indexOf.get(next)!));
    }
    if (low.get(folder) !== indexOf.get(folder)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      component.push(member);
    } while (member !== folder);
    if (component.length > 1) loops.push(component.sort());
  };
  for (const folder of edges.keys()) if (!indexOf.has(folder)) connect(folder);
  return loops;
}

/** The imports as a graph of folders. */
export function edgesOf(imports: FolderImport[]): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const { from, to } of imports) {
    if (!edges.has(from)) edges.set(from, new Set());
    edges.get(from)!.add(to);
  }
  return edges;
}
