import { index, prefix, route, type RouteConfig } from "@remix-run/route-config";

/**
 * Every address of the shop, in one table. The URLs are the spec's; the files are grouped by
 * area (storefront, checkout, account, admin, api), so a folder says where a screen lives.
 * Nesting is kept only where a parent renders an <Outlet> (the admin frame, the contest
 * editor's tabs) or where a resource route sits under a page's address.
 */
export default [
  ...storefront(),
  ...checkout(),
  ...account(),
  ...admin(),
  ...api(),
  ...aliases(),
  route("healthz", "routes/system/healthz.ts"),
  route("readyz", "routes/system/readyz.ts"),
  route("metrics", "routes/system/metrics.ts"),
  ...prefix("test-hooks", [
    route("error", "routes/system/test-hooks-error.tsx"),
    route("toast", "routes/system/test-hooks-toast.tsx"),
  ]),
  route("*", "routes/storefront/not-found.tsx"),
] satisfies RouteConfig;

function storefront() {
  return [
    index("routes/storefront/home.tsx"),
    route("about", "routes/storefront/about.tsx"),
    route("terms", "routes/storefront/terms.tsx"),
    route("privacy", "routes/storefront/privacy.tsx"),
    route("legal-notice", "routes/storefront/legal-notice.tsx"),
    route("contact", "routes/storefront/contact.tsx"),
    route("email-support", "routes/storefront/email-support.tsx"),
    route("order-form/:contestSlug", "routes/storefront/order-form.tsx"),
    route("download/:id", "routes/storefront/download-page.tsx", [
      route(":lineId/:format", "routes/storefront/download-file.ts"),
    ]),
    // An order's family link: its phone versions to watch, by the link's own token.
    route("family/:token", "routes/storefront/family-watch.tsx"),
    route("family/:token/:lineId", "routes/storefront/family-file.ts"),
    route("media/:name", "routes/storefront/media-file.ts"),
    route("home-banner/:file", "routes/storefront/home-banner.ts"),
    route("orders/:token", "routes/storefront/order-status.tsx"),
    route("orders/:token/konbini-test", "routes/storefront/konbini-test.ts"),
    route("order-lookup", "routes/storefront/order-lookup.tsx"),
    // The 領収書 of a paid order, reached with the order's status page token.
    route("orders/:token/receipt", "routes/storefront/receipt.tsx"),
    route("orders/:token/receipt.pdf", "routes/storefront/receipt-pdf.ts"),
    // A reminder mail's stop link (its own token: it stops reminders, it shows no order's page).
    route("reminders/:token", "routes/storefront/reminder-stop.tsx"),
  ];
}

function checkout() {
  return [
    route("order-confirmation", "routes/checkout/order-confirmation.tsx"),
    route("email-verification", "routes/checkout/email-verification.tsx"),
    route("payment", "routes/checkout/payment.tsx", [route("return", "routes/checkout/payment-return.tsx")]),
    route("payment-complete", "routes/checkout/payment-complete.tsx"),
  ];
}

function account() {
  return [
    route("login", "routes/account/login.tsx"),
    route("logout", "routes/account/logout.tsx"),
    route("register", "routes/account/register.tsx"),
    route("register/verify", "routes/account/register-verify.tsx"),
    route("verify-email", "routes/account/verify-email.tsx"),
    route("registration-success", "routes/account/registration-success.tsx"),
    route("account", "routes/account/account.tsx"),
    route("account/password", "routes/account/password.tsx"),
    route("purchase-history", "routes/account/purchase-history.tsx"),
    route("account/earlier-orders", "routes/account/earlier-orders.tsx"),
    route("forgot-password", "routes/account/forgot-password.tsx"),
    route("reset-password", "routes/account/reset-password.tsx"),
  ];
}

function admin() {
  return [
    route("admin-login", "routes/admin/login.tsx"),
    route("admin-2fa-verify", "routes/admin/second-factor.tsx"),
    route("admin", "routes/admin/layout.tsx", [
      index("routes/admin/contests.tsx"),
      route("contests/new", "routes/admin/contest-new.tsx"),
      route("contests/:id/delete", "routes/admin/contest-delete.tsx"),
      route("contest/:id", "routes/admin/contest/layout.tsx", [
        index("routes/admin/contest/athletes.tsx"),
        route("production", "routes/admin/contest/production.tsx"),
        route("production.csv", "routes/admin/contest/production-csv.ts"),
        route("flyer.pdf", "routes/admin/contest/flyer-pdf.ts"),
        route("settings", "routes/admin/contest/settings.tsx"),
        route("content", "routes/admin/contest/content.tsx"),
        route("cover", "routes/admin/contest/cover.tsx"),
        route("delivery", "routes/admin/contest/delivery.tsx"),
        route("media/:mediaId", "routes/admin/contest/media-file.ts"),
        route("poster/:name", "routes/admin/contest/poster-file.ts"),
      ]),
      route("orders", "routes/admin/orders.tsx"),
      route("orders/:orderNumber", "routes/admin/order.tsx"),
      route("sales", "routes/admin/sales.tsx"),
      route("sales.csv", "routes/admin/sales-csv.ts"),
      route("coupons", "routes/admin/coupons.tsx"),
      route("stray-payments", "routes/admin/stray-payments.tsx"),
      route("users", "routes/admin/users.tsx", { index: true }),
      route("users/:id/delete", "routes/admin/user-delete.tsx"),
      route("security", "routes/admin/security.tsx"),
      route("two-factor-setup", "routes/admin/two-factor-setup.tsx"),
      route("logout", "routes/admin/logout.tsx"),
    ]),
  ];
}

/**
 * The JSON calls of both spec documents (docs/api.md), each a thin resource route over the same
 * rules as its screen, grouped as the document is.
 */
function api() {
  return prefix("api", [
    ...apiStorefront(),
    ...apiAccounts(),
    ...apiCheckout(),
    ...apiAdminLogin(),
    ...apiCatalogue(),
    ...apiContestSettings(),
    ...apiAthletes(),
    ...apiOrders(),
    ...apiUsers(),
    ...apiCoupons(),
    ...apiSystem(),
  ]);
}

function apiStorefront() {
  return [route("download/:id", "routes/api/download.ts")];
}

function apiAccounts() {
  return [
    route("user", "routes/api/account/user.ts"),
    route("user/orders", "routes/api/account/orders.ts"),
    route("login", "routes/api/account/login.ts"),
    route("register", "routes/api/account/register.ts"),
    route("send-registration-code", "routes/api/account/send-registration-code.ts"),
    route("verify-registration-code", "routes/api/account/verify-registration-code.ts"),
    route("verify-email", "routes/api/account/verify-email.ts"),
    route("send-password-change-code", "routes/api/account/send-password-change-code.ts"),
    route("verify-password-change-code", "routes/api/account/verify-password-change-code.ts"),
    route("change-password", "routes/api/account/change-password.ts"),
  ];
}

function apiCheckout() {
  return [
    route("create-payment-intent", "routes/api/create-payment-intent.ts"),
    route("send-verification-code", "routes/api/checkout/send-verification-code.ts"),
    route("resend-verification-code", "routes/api/checkout/resend-verification-code.ts"),
    route("verify-email-code", "routes/api/checkout/verify-email-code.ts"),
    route("send-payment-confirmation", "routes/api/checkout/send-payment-confirmation.ts"),
    route("checkout/coupon", "routes/api/checkout/coupon.ts"),
  ];
}

/** Who is logged in, logging out, the admin login with its second factor, and the authenticator app. */
function apiAdminLogin() {
  return [
    route("auth/check", "routes/api/auth-check.ts"),
    route("logout", "routes/api/logout.ts"),
    route("admin/login", "routes/api/admin/login.ts"),
    route("admin/verify-2fa", "routes/api/admin/verify-2fa.ts"),
    route("admin/resend-2fa", "routes/api/admin/resend-2fa.ts"),
    route("setup-2fa", "routes/api/authenticator/setup.ts"),
    route("verify-2fa", "routes/api/authenticator/confirm.ts"),
  ];
}

/** The contest list and a contest's media (its settings and athletes have groups of their own). */
function apiCatalogue() {
  return [
    route("video/contests", "routes/api/contests.ts", [
      route(":id/media", "routes/api/media/list.ts", [
        route("chunked-init", "routes/api/media/chunked-init.ts"),
        route("chunked-status", "routes/api/media/chunked-status.ts"),
        route("chunked-upload", "routes/api/media/chunked-upload.ts"),
        route("chunked-complete", "routes/api/media/chunked-complete.ts"),
        route(":mediaId", "routes/api/media/item.ts", [route("thumbnail", "routes/api/media/thumbnail.ts")]),
      ]),
    ]),
    route("video/media/thumbnail/:contestId/:mediaId", "routes/api/media/public-thumbnail.ts"),
  ];
}

/**
 * 選手管理: a contest's athletes, one athlete, and the bulk bar. The static bulk-update and
 * bulk-permanent-delete outrank `:id` (the router ranks a fixed segment above a parameter).
 */
function apiAthletes() {
  return [
    route("video/contests/:id/athletes", "routes/api/athletes/contest-athletes.ts"),
    route("video/athletes/bulk-update", "routes/api/athletes/bulk-update.ts"),
    route("video/athletes/bulk-permanent-delete", "routes/api/athletes/bulk-permanent-delete.ts"),
    route("video/athletes/:id", "routes/api/athletes/item.ts"),
  ];
}

/**
 * One contest and its settings: the contest itself, its categories, video formats and price
 * description (大会設定). Beside `video/contests` rather than under it: resource routes render no
 * outlet, and a contest's other calls (media, athletes) keep their own groups.
 */
function apiContestSettings() {
  return [
    route("video/contests/:id", "routes/api/contests/item.ts"),
    route("video/contests/:id/categories", "routes/api/contests/categories.ts"),
    route("video/contests/:id/categories/:catId", "routes/api/contests/category.ts"),
    route("video/contests/:id/video-formats", "routes/api/contests/video-formats.ts"),
    route("video/contests/:id/video-formats/:formatId", "routes/api/contests/video-format.ts"),
    route("video/contests/:id/price-description", "routes/api/contests/price-description.ts"),
  ];
}

/** The order list: its order lines, 完了 and 納品 (an order by its number, or a line's). */
function apiOrders() {
  return [
    route("video/orders", "routes/api/orders/list.ts"),
    route("orders/complete/:orderNumber", "routes/api/orders/complete.ts"),
    route("orders/:orderNumber/deliver", "routes/api/orders/deliver.ts"),
  ];
}

/** ユーザー管理: the accounts, and deleting one. */
function apiUsers() {
  return [
    route("video/users", "routes/api/users/list.ts"),
    route("video/users/:id", "routes/api/users/item.ts"),
  ];
}

/** クーポン管理: the list, 追加, one coupon and its change, 停止 and 再開 (one module, two ids). */
function apiCoupons() {
  return [
    route("admin/coupons", "routes/api/admin/coupons.ts"),
    route("admin/coupons/:id", "routes/api/admin/coupons-item.ts"),
    route("admin/coupons/:id/disable", "routes/api/admin/coupons-switch.ts", {
      id: "api/admin/coupons-disable",
    }),
    route("admin/coupons/:id/enable", "routes/api/admin/coupons-switch.ts", {
      id: "api/admin/coupons-enable",
    }),
  ];
}

function apiSystem() {
  return [
    route("email-status", "routes/api/email-status.ts"),
    route("admin/security-dashboard", "routes/api/security-dashboard.ts"),
    route("stripe/webhook", "routes/api/stripe-webhook.ts"),
  ];
}

/**
 * The spec's other addresses. A page with two addresses is one module under two ids (a
 * re-exporting file would split it into two chunks that every visit loads); an address that
 * only leads elsewhere is a redirect.
 */
function aliases() {
  return [
    route("video", "routes/storefront/home.tsx", { id: "aliases/video", index: true }),
    route("privacy-policy", "routes/storefront/privacy.tsx", { id: "aliases/privacy-policy" }),
    route("registration-complete", "routes/account/registration-success.tsx", {
      id: "aliases/registration-complete",
    }),
    route("order-confirmation-old", "routes/checkout/order-confirmation.tsx", {
      id: "aliases/order-confirmation-old",
    }),
    ...["dashboard", "admin-dashboard", "video/dashboard"].map((path) =>
      route(path, "routes/aliases/to-admin.ts", { id: `aliases/${path}` }),
    ),
    route("contest-edit/:id", "routes/aliases/to-contest-editor.ts"),
  ];
}
