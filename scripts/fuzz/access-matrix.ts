// npm run test:access — every route of the production build, requested as an anonymous
// visitor, as customer A, as customer B and as an admin: nobody reaches what is not theirs.
// Admin pages send everyone else to /admin-login and admin APIs answer 401 (and change
// nothing when posted to); account pages send visitors to /login and show each customer
// only their own account and orders; a checkout belongs to the browser that made it; a
// download page, an order status page and an order's receipt open only with their unguessable id
// or token; a contest behind its 合言葉 shows its athletes, takes a draft and lists its media only
// to a browser that entered the code. The route list is read from the build, and a route that no
// rule below describes fails
// the run, so a new route cannot slip past.
import Database from "better-sqlite3";
import { adminCookie, startServer } from "../bench/lib.mjs";
import { mintSessionCookie } from "../mint-session.mjs";
import { Browser, Checks, prepareShop, purchase, root, StatusLog } from "../load/shop-client";
import { contestSlug } from "../../app/lib/rules/slug";

type Kind =
  | "admin"
  | "admin-api"
  | "account"
  | "account-link"
  | "checkout"
  | "download"
  | "order-link"
  | "public"
  | "public-read"
  | "alias"
  /** A customer's JSON call that needs the login: 401 for visitors, each customer only their own. */
  | "account-api"
  /** The platform's numbers: METRICS_TOKEN or the private network only; a 404 to everyone else, admins too. */
  | "metrics";

/** Who may reach a route, by its path. Order matters: the first rule that matches decides. */
const RULES: [RegExp, Kind][] = [
  [/^\/metrics$/, "metrics"],
  [/^\/(admin-login|admin-2fa-verify|admin\/logout)$/, "public"],
  [/^\/(admin-dashboard|dashboard|video\/dashboard|contest-edit\/[^/]+)$/, "alias"],
  // Logging in and out, and asking who one is: anyone may call them.
  [/^\/api\/(admin\/(login|verify-2fa|resend-2fa)|auth\/check|logout)$/, "public"],
  [/^\/api\/admin\//, "admin-api"],
  // The authenticator app's setup, 完了 and 納品 of an order.
  [/^\/api\/(setup-2fa|verify-2fa|orders\/)/, "admin-api"],
  // A thumbnail is served to visitors when its media item is public (404 otherwise), to admins always.
  [/^\/api\/video\/media\/thumbnail\//, "public"],
  [/^\/api\/video\/contests\/[^/]+\/media\/.+/, "admin-api"],
  // One contest and its settings are admin calls; the contest list is the storefront's to anyone
  // (an admin sees every contest), but only an admin creates a contest there.
  [/^\/api\/video\/contests\/[^/]+$/, "admin-api"],
  [/^\/api\/video\/contests$/, "public-read"],
  [
    /^\/api\/video\/(contests\/[^/]+\/(video-formats|price-description|categories|athletes)|athletes|media\/thumbnail|users|orders)/,
    "admin-api",
  ],
  // The customer's JSON calls (docs/api.md, Accounts and Checkout): who one is, one's orders and the
  // password change need the login; logging in, registering and the checkout's steps are anyone's.
  [
    /^\/api\/(user|user\/orders|send-password-change-code|verify-password-change-code|change-password)$/,
    "account-api",
  ],
  [
    /^\/api\/(login|register|send-registration-code|verify-registration-code|verify-email|send-verification-code|resend-verification-code|verify-email-code|send-payment-confirmation|checkout\/coupon)$/,
    "public",
  ],
  [/^\/admin(\/|$|\?)/, "admin"],
  [/^\/(account|account\/password|purchase-history)$/, "account"],
  // A mailed one-time link that also needs the account's login (the earlier-orders link).
  [/^\/account\/earlier-orders$/, "account-link"],
  [
    /^\/(order-confirmation|order-confirmation-old|email-verification|payment|payment-complete|payment\/return)$/,
    "checkout",
  ],
  // テストモード's store till and voucher deadline for an order: the admin's, not the status link holder's.
  [/^\/orders\/[^/]+\/konbini-test$/, "admin"],
  // An order's receipt (page and PDF) under its status page token: whoever holds the link, nobody else.
  [/^\/orders\/[^/]+\/receipt(\.pdf)?$/, "order-link"],
  // A reminder mail's stop link: whoever holds it; a guessed token finds nothing and stops nothing.
  [/^\/reminders\/[^/]+$/, "order-link"],
  // The order status page is opened like a download page: by its unguessable token, by whoever holds it;
  // so is an order's family link (its watch page and its videos).
  [/^\/(download\/|api\/download\/|orders\/|family\/)/, "download"],
  [
    /^\/($|video$|about|contact|terms|privacy|privacy-policy|legal-notice|login|logout|register|register\/verify|registration-complete|registration-success|verify-email|forgot-password|reset-password|email-support|order-lookup|healthz|readyz|no-such-page|order-form\/|media\/|home-banner\/|api\/video\/contests(\/[^/]+\/media)?$|api\/email-status|api\/create-payment-intent|api\/stripe\/webhook|test-hooks\/|\*)/,
    "public",
  ],
];
const kindOf = (path: string): Kind | null => RULES.find(([pattern]) => pattern.test(path))?.[1] ?? null;
/**
 * Methods of an admin API's address that are the storefront's call instead (docs/api.md): the
 * customer's order draft is POSTed where the admin's order list is read. Anyone may send them, and
 * what a non-admin sends changes none of the tables checked here.
 */
const CUSTOMER_METHODS_AT_ADMIN_ADDRESSES: Record<string, string[]> = { "/api/video/orders": ["POST"] };

const shop = await prepareShop();
const METRICS_TOKEN = "access-matrix-metrics-token-0123456789abcdef";
const server = await startServer({ ...shop.env, METRICS_TOKEN });
const log = new StatusLog();
const checks = new Checks();

// Two customers with accounts, each with a delivered order, and an admin.
const writable = new Database(shop.env.DATABASE_PATH);
const makeCustomer = (email: string) =>
  (
    writable
      .prepare("insert into users (email, name, password_hash) values (?, ?, 'x') returning id")
      .get(email, email) as { id: number }
  ).id;
const emailA = "customer-a@example.jp";
const emailB = "customer-b@example.jp";
const idA = makeCustomer(emailA);
const idB = makeCustomer(emailB);
writable.close();
const { SECRET, ENCRYPTION_KEY } = await import("../bench/lib.mjs");
function customerCookie(userId: number) {
  return mintSessionCookie({
    databasePath: shop.env.DATABASE_PATH,
    secret: SECRET,
    data: { userId, loggedInAt: Date.now() },
  });
}

const admin = new Browser(server.base, "203.0.113.50", log);
admin.cookie = await adminCookie(shop.env.DATABASE_PATH, shop.fixtures.adminId);
async function deliveredOrderOf(email: string, n: number) {
  const bought = await purchase(shop, server.base, log, n, { declined: false });
  // The order is the account's: the purchase used a throwaway address, so it is moved to the customer's.
  const db = new Database(shop.env.DATABASE_PATH);
  db.prepare("update orders set customer_email = ? where customer_email = ?").run(email, bought.email);
  db.close();
  const order = shop.db
    .prepare("select id, order_number, status_token from orders where customer_email = ?")
    .get(email) as { id: number; order_number: string; status_token: string };
  const lines = shop.db.prepare("select id from order_lines where order_id = ?").all(order.id) as {
    id: number;
  }[];
  await admin.request("POST", "/admin/orders", [
    ["orderId", String(order.id)],
    ["intent", "deliver"],
    ...lines.map((l): [string, string] => [`url-${l.id}`, `https://videos.example.jp/${l.id}.mp4`]),
  ]);
  const page = shop.db.prepare("select id from download_pages where order_id = ?").get(order.id) as {
    id: string;
  };
  return {
    orderNumber: order.order_number,
    downloadId: page.id,
    lineId: lines[0]!.id,
    statusToken: order.status_token,
  };
}
const orderA = await deliveredOrderOf(emailA, 1);
const orderB = await deliveredOrderOf(emailB, 2);

// Customer A's browser in the middle of a checkout (verified, at the payment step).
const checkoutA = new Browser(server.base, "198.51.100.61", log);
checkoutA.cookie = await customerCookie(idA);
const contest = shop.fixtures.contests[0]!;
const athlete = shop.fixtures.athletes.find((a) => a.contestId === contest.id)!;
const format = shop.fixtures.formats.find((f) => f.contestId === contest.id)!;
const checkoutEmail = "checkout-of-a@example.jp";
await checkoutA.request("POST", `/order-form/${encodeURIComponent(contestSlug(contest.name))}`, [
  ["intent", "next"],
  ["items[0].category", athlete.category],
  ["items[0].athleteId", String(athlete.id)],
  ["items[0].formatId", String(format.id)],
]);
await checkoutA.request("POST", "/order-confirmation", [
  ["email", checkoutEmail],
  ["name", "チェックアウト 太郎"],
]);

const identities = {
  anonymous: "",
  customerA: checkoutA.cookie,
  customerB: await customerCookie(idB),
  admin: admin.cookie,
};
type Identity = keyof typeof identities;

// The routes of the build, with their parameters filled with real values.
process.env.NODE_ENV = "production";
Object.assign(process.env, shop.env, { SESSION_SECRET: SECRET, ENCRYPTION_KEY, PAYMENT_PROVIDER: "test" });
type BuildRoute = {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  /** A JSON call's loader lists the methods it answers (jsonApi); a page's does not. */
  module: { action?: unknown; loader?: { methods?: string[] } };
};
const build = (await import(`${root}/build/server/index.js`)) as { routes: Record<string, BuildRoute> };
const fullPath = (id: string): string => {
  const route = build.routes[id];
  if (!route) return "";
  return [route.parentId ? fullPath(route.parentId) : "", route.path ?? ""].filter(Boolean).join("/");
};
const params: Record<string, string> = {
  id: String(contest.id),
  contestSlug: encodeURIComponent(contestSlug(contest.name)),
  lineId: String(orderA.lineId),
  format: "vertical",
  mediaId: "1",
  formatId: "1",
  catId: "1",
  athleteId: "1",
  name: "x.webp",
  // A well-formed status token nobody was given: looked up, found nowhere.
  token: "0123456789abcdef0123456789abcdef",
};
const routes = Object.values(build.routes)
  .filter((route) => route.id !== "root" && (route.module.loader || route.module.action))
  .map((route) => {
    const path = `/${fullPath(route.id)}`
      .replace(/:(\w+)/g, (_, key: string) => params[key] ?? "1")
      .replace(/\/\*$/, "/no-such-page");
    // An index route shares its parent's path; ?index addresses it (as Remix's own forms do).
    return { route, path: route.index ? `${path}?index` : path };
  });

async function get(path: string, who: Identity) {
  const response = await fetch(server.base + path, {
    redirect: "manual",
    headers: { Cookie: identities[who], "X-Forwarded-For": "192.0.2.77" },
  });
  log.note("GET", path, response.status);
  return {
    status: response.status,
    location: response.headers.get("Location") ?? "",
    body: await response.text(),
  };
}
/** Customers A and B both get the page or call, and neither sees the other's account or order. */
async function eachCustomerSeesOnlyTheirOwn(path: string) {
  const a = await get(path, "customerA");
  const b = await get(path, "customerB");
  checks.check(a.status === 200 && b.status === 200, `GET ${path}: customers got ${a.status} / ${b.status}`);
  checks.check(
    !a.body.includes(emailB) && !a.body.includes(orderB.orderNumber),
    `GET ${path} as A shows B's account or order`,
  );
  checks.check(
    !b.body.includes(emailA) && !b.body.includes(orderA.orderNumber),
    `GET ${path} as B shows A's account or order`,
  );
}

const FIELDS = { intent: "delete", contestId: "1", userId: "1", orderId: "1", name: "x" };

/**
 * A write as each identity. The JSON calls get JSON, as the only body the server entry lets a
 * cookie-authenticated call send (anything else is 415 before the route is asked): the matrix
 * checks the routes' own authorisation, not that refusal.
 */
async function send(method: "POST" | "PATCH" | "DELETE", path: string, who: Identity) {
  const json = path.startsWith("/api/");
  const response = await fetch(server.base + path, {
    method,
    redirect: "manual",
    headers: {
      Cookie: identities[who],
      "Content-Type": json ? "application/json" : "application/x-www-form-urlencoded",
      "X-Forwarded-For": "192.0.2.78",
    },
    body: json ? JSON.stringify(FIELDS) : new URLSearchParams(FIELDS).toString(),
  });
  log.note(method, path, response.status);
  return { status: response.status, location: response.headers.get("Location") ?? "" };
}
const receiptsIssued = () =>
  JSON.stringify(shop.db.prepare("select sum(receipt_issue_count) as n from orders").get());
const isRedirect = (status: number) => [301, 302, 303, 307, 308].includes(status);
// An API refuses with 401, or with 405 for a method it never takes from anyone.
const turnedAway = (r: { status: number; location: string }, api: boolean) =>
  api ? r.status === 401 || r.status === 405 : isRedirect(r.status) && r.location.startsWith("/admin-login");
const snapshot = () =>
  JSON.stringify(
    [
      "contests",
      "athletes",
      "categories",
      "video_formats",
      "media_items",
      "orders",
      "order_lines",
      "users",
      "download_pages",
      "family_links",
      "coupons",
      "coupon_uses",
    ].map((table) =>
      shop.db.prepare(`select count(*) as n, coalesce(max(rowid), 0) as m from ${table}`).get(),
    ),
  );

for (const { route, path } of routes) {
  const kind = kindOf(path.replace(/\?.*$/, ""));
  if (!kind) {
    checks.check(
      false,
      `${path}: no access rule describes this route (add it to RULES in scripts/fuzz/access-matrix.ts)`,
    );
    continue;
  }
  const isApi = kind === "admin-api";
  if (kind === "admin" || kind === "admin-api") {
    for (const who of ["anonymous", "customerA", "customerB"] as const) {
      if (route.module.loader)
        checks.check(turnedAway(await get(path, who), isApi), `GET ${path} as ${who} was not turned away`);
      if (route.module.action) {
        // Pages take form posts; the APIs also PATCH and DELETE.
        for (const method of isApi ? (["POST", "PATCH", "DELETE"] as const) : (["POST"] as const)) {
          const before = snapshot();
          const answer = await send(method, path, who);
          const customersCall = CUSTOMER_METHODS_AT_ADMIN_ADDRESSES[path]?.includes(method) ?? false;
          checks.check(
            customersCall ? answer.status < 500 : turnedAway(answer, isApi),
            `${method} ${path} as ${who} was not turned away (${answer.status})`,
          );
          checks.check(snapshot() === before, `${method} ${path} as ${who} changed the database`);
        }
      }
    }
    // A JSON call that takes no GET answers it 405 to everyone, admins too.
    const answersGet = route.module.loader && (route.module.loader.methods?.includes("GET") ?? true);
    if (answersGet) {
      const asAdmin = await get(path, "admin");
      checks.check(
        !turnedAway(asAdmin, isApi) && asAdmin.status < 500,
        `GET ${path} as admin: ${asAdmin.status} ${asAdmin.location}`,
      );
    }
  } else if (kind === "account-api") {
    const methods = route.module.loader?.methods ?? [];
    for (const method of methods.filter((each) => each === "POST")) {
      const before = snapshot();
      const answer = await send(method, path, "anonymous");
      checks.check(answer.status === 401, `${method} ${path} as anonymous answered ${answer.status}`);
      checks.check(snapshot() === before, `${method} ${path} as anonymous changed the database`);
    }
    if (methods.includes("GET")) {
      const anonymous = await get(path, "anonymous");
      checks.check(anonymous.status === 401, `GET ${path} as anonymous answered ${anonymous.status}`);
      await eachCustomerSeesOnlyTheirOwn(path);
    }
  } else if (kind === "alias") {
    for (const who of ["anonymous", "customerA"] as const) {
      // An alias leads to the admin area, which then turns the visitor away.
      let r = await get(path, who);
      for (let hops = 0; hops < 3 && isRedirect(r.status) && !r.location.startsWith("/admin-login"); hops++)
        r = await get(r.location, who);
      checks.check(turnedAway(r, false), `GET ${path} as ${who} did not end at /admin-login`);
    }
  } else if (kind === "account") {
    const anonymous = await get(path, "anonymous");
    checks.check(
      isRedirect(anonymous.status) && anonymous.location.startsWith("/login"),
      `GET ${path} as anonymous did not go to /login`,
    );
    if (route.module.loader) {
      await eachCustomerSeesOnlyTheirOwn(path);
    }
  } else if (kind === "account-link") {
    const anonymous = await get(path, "anonymous");
    checks.check(
      isRedirect(anonymous.status) && anonymous.location.startsWith("/login"),
      `GET ${path} as anonymous did not go to /login`,
    );
    // Without the mailed token the link opens nothing, for anyone.
    for (const who of ["customerA", "customerB"] as const) {
      const r = await get(path, who);
      checks.check(
        r.status >= 400 && r.status < 500,
        `GET ${path} (no token) as ${who} answered ${r.status}`,
      );
      if (route.module.action) {
        const before = snapshot();
        const answer = await send("POST", path, who);
        checks.check(answer.status < 500, `POST ${path} as ${who} answered ${answer.status}`);
        checks.check(snapshot() === before, `POST ${path} as ${who} changed the database`);
      }
    }
  } else if (kind === "checkout") {
    for (const who of ["anonymous", "customerB", "admin"] as const) {
      if (!route.module.loader) continue;
      const r = await get(path, who);
      checks.check(
        r.status < 500 && !r.body.includes(checkoutEmail),
        `GET ${path} as ${who} shows customer A's checkout`,
      );
    }
  } else if (kind === "download") {
    // The parameters here are not a real page's id: a guessed id finds nothing, and changes nothing.
    const r = await get(path, "customerB");
    checks.check(r.status === 404, `GET ${path} (a guessed id) answered ${r.status}`);
    if (route.module.action) {
      const before = snapshot();
      const answer = await send("POST", path, "customerB");
      checks.check(
        [400, 404, 405].includes(answer.status),
        `POST ${path} (a guessed id) answered ${answer.status}`,
      );
      checks.check(snapshot() === before, `POST ${path} (a guessed id) changed the database`);
    }
  } else if (kind === "order-link") {
    // The parameters here are not a real order's token: a guessed one finds nothing and issues nothing.
    const r = await get(path, "customerB");
    checks.check(r.status === 404, `GET ${path} (a guessed token) answered ${r.status}`);
    if (route.module.action) {
      const before = receiptsIssued();
      const answer = await send("POST", path, "customerB");
      checks.check(answer.status === 404, `POST ${path} (a guessed token) answered ${answer.status}`);
      checks.check(receiptsIssued() === before, `POST ${path} (a guessed token) issued a receipt`);
    }
  } else if (kind === "public-read") {
    const r = await get(path, "anonymous");
    checks.check(r.status === 200, `GET ${path} as anonymous answered ${r.status}`);
    for (const who of ["anonymous", "customerA", "customerB"] as const)
      for (const method of ["POST", "PATCH", "DELETE"] as const) {
        const before = snapshot();
        const answer = await send(method, path, who);
        checks.check(
          turnedAway(answer, true),
          `${method} ${path} as ${who} was not turned away (${answer.status})`,
        );
        checks.check(snapshot() === before, `${method} ${path} as ${who} changed the database`);
      }
  } else if (kind === "metrics") {
    for (const who of ["anonymous", "customerA", "customerB", "admin"] as const) {
      const r = await get(path, who);
      checks.check(
        r.status === 404 && !r.body.includes("shop_"),
        `GET ${path} as ${who} from a public address answered ${r.status}`,
      );
    }
    const scrape = async (headers: Record<string, string>) => {
      const response = await fetch(server.base + path, { headers });
      log.note("GET", path, response.status);
      return { status: response.status, body: await response.text() };
    };
    const publicAddress = { "X-Forwarded-For": "192.0.2.77" };
    const wrong = await scrape({ ...publicAddress, Authorization: `Bearer ${METRICS_TOKEN.slice(0, -1)}x` });
    checks.check(wrong.status === 404, `GET ${path} with a wrong token answered ${wrong.status}`);
    for (const [what, headers] of [
      ["with the token", { ...publicAddress, Authorization: `Bearer ${METRICS_TOKEN}` }],
      ["from this machine", { "X-Forwarded-For": "127.0.0.1" }],
      ["from fly.io's private network", { "X-Forwarded-For": "fdaa:0:1::5" }],
    ] as const) {
      const r = await scrape(headers);
      checks.check(
        r.status === 200 && r.body.includes("shop_http_request_duration_seconds"),
        `GET ${path} ${what} answered ${r.status}`,
      );
    }
  } else if (route.module.loader) {
    const r = await get(path, "anonymous");
    checks.check(r.status < 500, `GET ${path} as anonymous answered ${r.status}`);
  }
}
// The download pages themselves: A's opens with A's id, whoever holds the link; B's id shows B's order only.
const pageA = await get(`/download/${orderA.downloadId}`, "anonymous");
checks.check(
  pageA.status === 200 && pageA.body.includes(orderA.orderNumber) && !pageA.body.includes(orderB.orderNumber),
  "A's download page does not show exactly A's order",
);
// A's family link (made on A's download page) shows A's videos' page only; the link's watchers hold it.
await get(`/download/${orderA.downloadId}`, "anonymous");
const madeLink = await fetch(`${server.base}/download/${orderA.downloadId}`, {
  method: "POST",
  redirect: "manual",
  headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": "192.0.2.79" },
  body: new URLSearchParams({ intent: "family-link-make" }).toString(),
});
log.note("POST", `/download/${orderA.downloadId}`, madeLink.status);
const familyToken = (
  shop.db
    .prepare(
      "select token from family_links where order_id = (select order_id from download_pages where id = ?)",
    )
    .get(orderA.downloadId) as { token: string } | undefined
)?.token;
checks.check(madeLink.status === 302 && familyToken !== undefined, "A's download page made no family link");
const familyA = await get(`/family/${familyToken}`, "customerB");
checks.check(
  familyA.status === 200 && !familyA.body.includes(orderB.orderNumber) && !familyA.body.includes(emailA),
  `A's family link answered ${familyA.status} or showed more than A's videos`,
);
// The status pages likewise: A's token shows A's order and nobody else's.
const statusA = await get(`/orders/${orderA.statusToken}`, "anonymous");
checks.check(
  statusA.status === 200 &&
    statusA.body.includes(orderA.orderNumber) &&
    !statusA.body.includes(orderB.orderNumber),
  "A's order status page does not show exactly A's order",
);
// An order's receipt: A's token opens A's (anyone holding the link), showing A's order only.
const receiptA = await get(`/orders/${orderA.statusToken}/receipt`, "anonymous");
checks.check(
  receiptA.status === 200 &&
    receiptA.body.includes(orderA.orderNumber) &&
    !receiptA.body.includes(orderB.orderNumber),
  "A's receipt page does not show exactly A's order",
);
// A contest behind its 合言葉: nothing of its athletes, its draft or its media without the code; all with it.
{
  const coded = shop.fixtures.contests.at(-1)!;
  const codedDb = new Database(shop.env.DATABASE_PATH);
  codedDb.prepare("update contests set access_code = 'Aoba-2025' where id = ?").run(coded.id);
  const names = codedDb
    .prepare("select name from athletes where contest_id = ? and is_deleted = 0 and video_status = '販売中'")
    .all(coded.id) as { name: string }[];
  codedDb.close();
  const athleteOf = shop.fixtures.athletes.find((a) => a.contestId === coded.id)!;
  const formatOf = shop.fixtures.formats.find((f) => f.contestId === coded.id)!;
  const formPath = `/order-form/${encodeURIComponent(contestSlug(coded.name))}`;
  const namesIn = (body: string) => names.filter(({ name }) => body.includes(name)).length;
  const stranger = new Browser(server.base, "198.51.100.90", log);
  for (const path of [formPath, `${formPath}.data`]) {
    const r = await stranger.request("GET", path);
    checks.check(r.status === 403 && namesIn(r.body) === 0, `GET ${path} without its 合言葉: ${r.status}`);
  }
  const drafts = () => JSON.stringify(shop.db.prepare("select count(*) as n from checkouts").get());
  const beforeDraft = drafts();
  const draft = await stranger.request("POST", formPath, [
    ["intent", "next"],
    ["items[0].category", athleteOf.category],
    ["items[0].athleteId", String(athleteOf.id)],
    ["items[0].formatId", String(formatOf.id)],
  ]);
  checks.check(
    draft.status === 403 && drafts() === beforeDraft,
    `POST ${formPath} without its 合言葉: ${draft.status}`,
  );
  const media = await stranger.request("GET", `/api/video/contests/${coded.id}/media`);
  checks.check(media.status === 404, `GET the media of a contest behind its 合言葉 answered ${media.status}`);
  const wrong = await stranger.request("POST", formPath, [
    ["intent", "unlock"],
    ["accessCode", "aoba-2024"],
  ]);
  checks.check(wrong.status === 403 && stranger.cookie === "", `a wrong 合言葉 answered ${wrong.status}`);
  const right = await stranger.request("POST", formPath, [
    ["intent", "unlock"],
    ["accessCode", "ＡＯＢＡ－２０２５"],
  ]);
  checks.check(right.status === 303, `the right 合言葉 answered ${right.status}`);
  const opened = await stranger.request("GET", formPath);
  checks.check(
    opened.status === 200 && namesIn(opened.body) > 0,
    `GET ${formPath} with its 合言葉: ${opened.status}`,
  );
  const listed = await stranger.request("GET", `/api/video/contests/${coded.id}/media`);
  checks.check(
    listed.status === 200,
    `GET the media of a contest opened by its 合言葉 answered ${listed.status}`,
  );
}
checks.check(
  log.serverErrors.length === 0,
  `${log.serverErrors.length} answers were 5xx: ${log.serverErrors.slice(0, 5).join(", ")}`,
);
await server.stop();
await shop.close();
console.log(`${routes.length} routes × anonymous, customer A, customer B, admin`);
process.exitCode = checks.report();
process.exit();
