import crypto from "node:crypto";
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import {
  ORDER_STATUSES,
  PAYMENT_STATUSES,
  type OrderStatus,
  type PaymentStatus,
} from "../../lib/rules/order-statuses";
import { REFUND_STATUSES } from "../../lib/rules/refunds";
import type { CarriedLine } from "../payments/order-metadata.server";
import { PAYMENT_METHODS, type PaymentMethod } from "../../lib/rules/payment-terms";
import type { VideoProbe } from "../../lib/rules/video-versions";
import { MEDIA_JOB_KINDS, MEDIA_JOB_STATUSES, type JobKind } from "../../lib/rules/video-job-states";
import { AMOUNT_KINDS, type Discount } from "../../lib/rules/promotions";

/**
 * The shop's whole data model. Money is integer yen, tax included. Times are
 * UTC milliseconds (shown in Asia/Tokyo). Every list a page shows has an index
 * that matches its filter and order.
 */

const createdAt = () =>
  integer("created_at", { mode: "timestamp_ms" })
    .notNull()
    .default(sql`(unixepoch('subsec') * 1000)`);

export const SITE_PUBLIC_STATUSES = ["非公開", "公開", "公開予約"] as const;
export type SitePublicStatus = (typeof SITE_PUBLIC_STATUSES)[number];

export const contests = sqliteTable(
  "contests",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    /** The spec's slug without hyphens, so a lookup by slug is one indexed match. */
    slugKey: text("slug_key").notNull(),
    date: text("date").notNull().default("未定"),
    location: text("location").notNull().default(""),
    videoPublished: integer("video_published", { mode: "boolean" }).notNull().default(false),
    photoPublished: integer("photo_published", { mode: "boolean" }).notNull().default(false),
    sitePublicStatus: text("site_public_status", { enum: SITE_PUBLIC_STATUSES }).notNull().default("非公開"),
    scheduledPublishDate: integer("scheduled_publish_date", { mode: "timestamp_ms" }),
    bibNumberLabel: text("bib_number_label").notNull().default("ゼッケン番号"),
    /**
     * The 合言葉 that opens the order form (null: open to all). Kept as the admin typed it, not
     * hashed: it is a shared code printed on the venue's flyer, which she reads back to print.
     */
    accessCode: text("access_code"),
    /** The order form shows athletes' numbers without their names (with or without a code). */
    namesHidden: integer("names_hidden", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    // One contest per slug: the order form finds its contest by it.
    uniqueIndex("contests_slug_key_idx").on(t.slugKey),
    index("contests_status_idx").on(t.videoPublished, t.sitePublicStatus),
  ],
);

export const categories = sqliteTable(
  "categories",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    contestId: integer("contest_id")
      .notNull()
      .references(() => contests.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    color: text("color").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("categories_contest_idx").on(t.contestId, t.id)],
);

export const videoFormats = sqliteTable(
  "video_formats",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    contestId: integer("contest_id")
      .notNull()
      .references(() => contests.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    displayOrder: integer("display_order").notNull().default(0),
  },
  (t) => [index("video_formats_contest_idx").on(t.contestId, t.displayOrder)],
);

export type PriceItem = { name: string; price: string };

export const priceDescriptions = sqliteTable("price_descriptions", {
  contestId: integer("contest_id")
    .primaryKey()
    .references(() => contests.id, { onDelete: "cascade" }),
  items: text("items", { mode: "json" }).$type<PriceItem[]>().notNull(),
  notes: text("notes").notNull().default(""),
});

export const ATHLETE_STATUSES = ["販売中", "確認中", "受注停止", "未撮影", "撮影完了", "編集中"] as const;
export type AthleteStatus = (typeof ATHLETE_STATUSES)[number];

/**
 * Two active athletes of one contest never share a number: the rule is `rowRefusal` (the row
 * edit and the API's create, catalog/athlete-edits.server.ts) and `applyBulk`
 * (catalog/athlete-bulk.server.ts), both through catalog/athlete-numbers.server.ts, backed by the
 * triggers of migration 0011 (not an index, as older data may hold a pair; a migration that
 * rebuilds this table must re-create them).
 */
export const athletes = sqliteTable(
  "athletes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    contestId: integer("contest_id")
      .notNull()
      .references(() => contests.id, { onDelete: "cascade" }),
    athleteNumber: integer("athlete_number").notNull(),
    name: text("name").notNull(),
    /** A category name, as the spec has it; shown as 未分類 when empty. */
    category: text("category").notNull().default(""),
    videoStatus: text("video_status").$type<AthleteStatus>().notNull().default("未撮影"),
    photoStatus: text("photo_status").$type<AthleteStatus>().notNull().default("未撮影"),
    verticalVideoPrice: integer("vertical_video_price"),
    horizontalVideoPrice: integer("horizontal_video_price"),
    isDeleted: integer("is_deleted", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    index("athletes_contest_idx").on(t.contestId, t.isDeleted, t.athleteNumber),
    index("athletes_contest_category_idx").on(t.contestId, t.category, t.athleteNumber),
  ],
);

export const MEDIA_CATEGORIES = ["cover-image", "sample", "others"] as const;
export const MEDIA_TYPES = ["video", "image"] as const;

export const mediaItems = sqliteTable(
  "media_items",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    contestId: integer("contest_id")
      .notNull()
      .references(() => contests.id, { onDelete: "cascade" }),
    /** Name the shop chose in the store (MEDIA_DIR or the bucket's key under its prefix); never the uploader's name. */
    storedName: text("stored_name").notNull(),
    originalName: text("original_name").notNull(),
    category: text("category", { enum: MEDIA_CATEGORIES }).notNull().default("sample"),
    mediaType: text("media_type", { enum: MEDIA_TYPES }).notNull(),
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    width: integer("width"),
    height: integer("height"),
    displayOrder: integer("display_order").notNull().default(0),
    thumbnailStoredName: text("thumbnail_stored_name"),
    /** A video's ffprobe reading, taken when it was uploaded; null for images. */
    video: text("video", { mode: "json" }).$type<VideoProbe>(),
    /** A frame of the video (media job `poster`), shown where no thumbnail was attached by hand. */
    posterStoredName: text("poster_stored_name"),
    uploadedAt: integer("uploaded_at", { mode: "timestamp_ms" })
      .notNull()
      .default(sql`(unixepoch('subsec') * 1000)`),
  },
  (t) => [
    index("media_contest_category_idx").on(t.contestId, t.category, t.uploadedAt),
    index("media_contest_order_idx").on(t.contestId, t.displayOrder),
    uniqueIndex("media_stored_name_idx").on(t.storedName),
    // A sample's poster is served by its name (/media/poster-…): looked up like its video's.
    index("media_poster_idx").on(t.posterStoredName),
  ],
);

export const UPLOAD_PURPOSES = ["media", "delivery"] as const;

export const mediaUploads = sqliteTable("media_uploads", {
  /** Random, so one admin's upload cannot be continued by guessing. */
  id: text("id").primaryKey(),
  /** media: a contest's sample or other media; delivery: an edited video to deliver (a delivery file). */
  purpose: text("purpose", { enum: UPLOAD_PURPOSES }).notNull().default("media"),
  contestId: integer("contest_id")
    .notNull()
    .references(() => contests.id, { onDelete: "cascade" }),
  originalName: text("original_name").notNull(),
  fileSize: integer("file_size").notNull(),
  contentType: text("content_type").notNull(),
  mediaType: text("media_type", { enum: MEDIA_TYPES }).notNull(),
  category: text("category", { enum: MEDIA_CATEGORIES }).notNull().default("sample"),
  chunkSize: integer("chunk_size").notNull(),
  totalChunks: integer("total_chunks").notNull(),
  receivedChunks: integer("received_chunks").notNull().default(0),
  createdAt: createdAt(),
  /**
   * The stored name the file gets, chosen when its first chunk shows what it is (the object
   * storage's multipart upload is made under its final key, so completing it moves nothing).
   */
  storedName: text("stored_name"),
  /** The store's id of the upload: S3's UploadId, or the local part file's id. Null until chunk 0. */
  storeUploadId: text("store_upload_id"),
  /** When a chunk was last stored: an upload untouched for 24 hours is abandoned. */
  lastChunkAt: integer("last_chunk_at", { mode: "timestamp_ms" }),
});

/** The ETag the object storage answered for each stored chunk (part number = chunk index + 1). */
export const mediaUploadParts = sqliteTable(
  "media_upload_parts",
  {
    uploadId: text("upload_id")
      .notNull()
      .references(() => mediaUploads.id, { onDelete: "cascade" }),
    partNumber: integer("part_number").notNull(),
    etag: text("etag"),
  },
  (t) => [primaryKey({ columns: [t.uploadId, t.partNumber] })],
);

export const users = sqliteTable(
  "users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** Stored lower-cased, so one address is one account. */
    email: text("email").notNull(),
    name: text("name").notNull().default(""),
    passwordHash: text("password_hash").notNull(),
    isAdmin: integer("is_admin", { mode: "boolean" }).notNull().default(false),
    failedLoginCount: integer("failed_login_count").notNull().default(0),
    lockedUntil: integer("locked_until", { mode: "timestamp_ms" }),
    /** The latest wrong password, at either login: 15 quiet minutes after it start a fresh count. */
    lastFailedLoginAt: integer("last_failed_login_at", { mode: "timestamp_ms" }),
    /**
     * Wrong second-factor codes since the last completed second factor. Kept apart from the
     * password's count because a right password must not give a code-guesser fresh tries.
     */
    secondFactorFailures: integer("second_factor_failures").notNull().default(0),
    /** Authenticator secret, encrypted with a key from configuration. */
    totpSecretEncrypted: text("totp_secret_encrypted"),
    /** The last authenticator time step (30 s) accepted, so one code logs in once. */
    totpLastStep: integer("totp_last_step"),
    /**
     * An authenticator being set up, until its first code confirms it: the secret and the
     * token of the screen that started it, sealed together, kept here rather than in the
     * session cookie (signed, not encrypted) that used to carry it. Void 15 minutes after
     * it was started.
     */
    pendingTotpSecretEncrypted: text("pending_totp_secret_encrypted"),
    pendingTotpStartedAt: integer("pending_totp_started_at", { mode: "timestamp_ms" }),
    /**
     * Made by the checkout's auto-login, whose address was shown only by a six-digit code
     * (guessable): until a mailed link confirms the address, orders the address placed
     * before the account existed stay out of its purchase history.
     */
    addressUnconfirmed: integer("address_unconfirmed", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
    lastLoginAt: integer("last_login_at", { mode: "timestamp_ms" }),
  },
  (t) => [uniqueIndex("users_email_idx").on(t.email), index("users_created_idx").on(t.createdAt)],
);

export type CheckoutItem = {
  category: string;
  athleteId: number | null;
  formatId: number | null;
};

/**
 * An order line priced by the server, frozen when the payment is prepared, so the order matches
 * what was charged; the payment carries the same (server/payments/order-metadata.server.ts).
 */
export type PricedLine = CarriedLine;

export const CHECKOUT_STATUSES = ["draft", "verified", "paid", "closed"] as const;

export const checkouts = sqliteTable(
  "checkouts",
  {
    /** Random; held in the session cookie. */
    id: text("id").primaryKey(),
    contestId: integer("contest_id").references(() => contests.id, { onDelete: "set null" }),
    items: text("items", { mode: "json" }).$type<CheckoutItem[]>().notNull(),
    customerEmail: text("customer_email"),
    customerName: text("customer_name"),
    autoLogin: integer("auto_login", { mode: "boolean" }).notNull().default(false),
    /** Hashed as soon as it arrives; the plain password is never stored. */
    pendingPasswordHash: text("pending_password_hash"),
    emailVerifiedAt: integer("email_verified_at", { mode: "timestamp_ms" }),
    status: text("status", { enum: CHECKOUT_STATUSES }).notNull().default("draft"),
    paymentIntentId: text("payment_intent_id"),
    amount: integer("amount"),
    pricedLines: text("priced_lines", { mode: "json" }).$type<PricedLine[]>(),
    /** The coupon code the customer entered on the confirmation page (normalised); checked again at every step. */
    couponCode: text("coupon_code"),
    /**
     * When the customer last took this checkout's prices (the order form's save, the confirmation's):
     * an early-bird that ends after it is explained on the next steps (promotions/ended-promotions).
     */
    pricedAt: integer("priced_at", { mode: "timestamp_ms" }),
    /** The account made for this checkout's auto-login choice, once the order exists. */
    createdUserId: integer("created_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }),
  },
  (t) => [uniqueIndex("checkouts_payment_intent_idx").on(t.paymentIntentId)],
);

export { ORDER_STATUSES, PAYMENT_STATUSES, type OrderStatus, type PaymentStatus };
export { PAYMENT_METHODS, type PaymentMethod };

/** The order status page's token: 128 random bits, as a download page's id. */
export function newStatusToken(): string {
  return crypto.randomBytes(16).toString("hex");
}

export const orders = sqliteTable(
  "orders",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** 8 digits; unique, so two orders in the same millisecond cannot share one. */
    orderNumber: text("order_number").notNull(),
    checkoutId: text("checkout_id").notNull(),
    paymentIntentId: text("payment_intent_id").notNull(),
    contestId: integer("contest_id").references(() => contests.id, { onDelete: "set null" }),
    /** A copy: deleting the contest never changes an order. */
    contestName: text("contest_name").notNull(),
    bibNumberLabel: text("bib_number_label").notNull().default(""),
    customerEmail: text("customer_email").notNull(),
    customerName: text("customer_name").notNull(),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    totalAmount: integer("total_amount").notNull(),
    /** The lines at their list prices; totalAmount is this less `discounts`. Null on orders from before promotions (no discount). */
    listTotal: integer("list_total"),
    /** Each discount the order got, summed over its lines, with the name the customer saw. */
    discounts: text("discounts", { mode: "json" })
      .$type<Discount[]>()
      .notNull()
      .default(sql`'[]'`),
    /** The coupon used, and its code as entered (the coupon may be edited later). */
    couponId: integer("coupon_id"),
    couponCode: text("coupon_code"),
    /** How many order lines: kept on the order so sales reports need not join the lines. */
    lineCount: integer("line_count").notNull().default(0),
    status: text("status", { enum: ORDER_STATUSES }).notNull().default("未対応"),
    paymentMethod: text("payment_method", { enum: PAYMENT_METHODS }).notNull().default("card"),
    paymentStatus: text("payment_status", { enum: PAYMENT_STATUSES }).notNull().default("paid"),
    /** When the money came in (a card order: when it was made); null while 入金待ち or after 期限切れ. */
    paidAt: integer("paid_at", { mode: "timestamp_ms" }),
    /** A konbini voucher's deadline, its confirmation number and (Stripe) its hosted voucher page. */
    paymentDueAt: integer("payment_due_at", { mode: "timestamp_ms" }),
    konbiniConfirmationNumber: text("konbini_confirmation_number"),
    konbiniVoucherUrl: text("konbini_voucher_url"),
    /**
     * 入金確認（手動）: a konbini order an admin marked paid by hand (the customer paid at the store
     * and showed the receipt; the provider's word had not come): who (the admin's address, kept
     * if the account goes) and when. Null when the provider reported the payment itself.
     */
    manualPaymentConfirmedBy: text("manual_payment_confirmed_by"),
    manualPaymentConfirmedAt: integer("manual_payment_confirmed_at", { mode: "timestamp_ms" }),
    /** When the provider's own report of a payment confirmed by hand came in afterwards (null until it does). */
    providerPaymentReportedAt: integer("provider_payment_reported_at", { mode: "timestamp_ms" }),
    /** The unguessable part of the order status page's address, mailed to the customer. */
    statusToken: text("status_token").notNull().$defaultFn(newStatusToken),
    /** 領収書: the addressee is entered once and then fixed; later issues are marked 再発行. */
    receiptAddressee: text("receipt_addressee"),
    receiptIssuedAt: integer("receipt_issued_at", { mode: "timestamp_ms" }),
    receiptIssueCount: integer("receipt_issue_count").notNull().default(0),
    deliveryMailSentAt: integer("delivery_mail_sent_at", { mode: "timestamp_ms" }),
    /**
     * When a delivered line last got another file (a corrected video replaced the first):
     * later than the delivery mail, the back-office offers to mail the customer again.
     */
    deliveryChangedAt: integer("delivery_changed_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("orders_number_idx").on(t.orderNumber),
    uniqueIndex("orders_checkout_idx").on(t.checkoutId),
    uniqueIndex("orders_payment_intent_idx").on(t.paymentIntentId),
    uniqueIndex("orders_status_token_idx").on(t.statusToken),
    index("orders_email_created_idx").on(t.customerEmail, t.createdAt),
    // The order list's tabs: paid and not yet delivered, delivered, awaiting payment; newest first.
    index("orders_payment_status_created_idx").on(t.paymentStatus, t.status, t.createdAt),
    index("orders_created_idx").on(t.createdAt),
    index("orders_contest_created_idx").on(t.contestName, t.createdAt),
    // The order list filtered by contest, per tab, newest first.
    index("orders_contest_status_created_idx").on(t.contestId, t.paymentStatus, t.status, t.createdAt),
    // Covers the sales report: it reads these columns only (paid orders).
    index("orders_sales_idx").on(
      t.createdAt,
      t.paymentStatus,
      t.contestName,
      t.totalAmount,
      t.lineCount,
      t.listTotal,
    ),
    // The konbini vouchers whose deadline has passed (start-up and hourly reconciliation).
    index("orders_payment_due_idx").on(t.paymentStatus, t.paymentDueAt),
  ],
);

export const orderLines = sqliteTable(
  "order_lines",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    /** {orderNumber}-{n} */
    lineNumber: text("line_number").notNull(),
    contestName: text("contest_name").notNull(),
    category: text("category").notNull(),
    athleteId: integer("athlete_id").references(() => athletes.id, { onDelete: "set null" }),
    athleteNumber: integer("athlete_number").notNull(),
    athleteName: text("athlete_name").notNull(),
    style: text("style").notNull(),
    /** Which of the athlete's prices applied: the first format is vertical, the second horizontal. */
    orientation: text("orientation", { enum: ["vertical", "horizontal"] }).notNull(),
    /** What was paid for the line: its list price less its discounts (a refund gives back this). */
    price: integer("price").notNull(),
    /** The line's list price before promotions; null on lines from before promotions (= price). */
    listPrice: integer("list_price"),
    /** The discounts that came off this line (lib/rules/promotions.ts). */
    discounts: text("discounts", { mode: "json" })
      .$type<Discount[]>()
      .notNull()
      .default(sql`'[]'`),
    status: text("status", { enum: ORDER_STATUSES }).notNull().default("未対応"),
    /**
     * True when the line is お断り (the shop cannot make it): a refused line is not waited for by
     * 納品 or 完了 and gets no video. The spec calls this flag productionPossible (true = refused);
     * named for what it means here, and kept under the spec's name only in the JSON API's answer.
     */
    refused: integer("refused", { mode: "boolean" }).notNull().default(false),
    /** お断り: the note the customer is sent and shown, and when the line was refused. */
    refusalNote: text("refusal_note"),
    refusedAt: integer("refused_at", { mode: "timestamp_ms" }),
    videoDownloadUrl: text("video_download_url"),
    /** The shop's own file for this line; one file serves every line of its athlete and style. */
    deliveryFileId: integer("delivery_file_id").references(() => deliveryFiles.id),
    downloadStartedAt: integer("download_started_at", { mode: "timestamp_ms" }),
    /**
     * What the shop saw of its own file's downloads (download-retry.server.ts): when one last
     * reached the visitor to its last byte, and when one was last cut short (the connection closed
     * before the answer was sent). Nothing for a video at a URL, or from a bucket (the bytes go
     * from there).
     */
    downloadFinishedAt: integer("download_finished_at", { mode: "timestamp_ms" }),
    downloadCutAt: integer("download_cut_at", { mode: "timestamp_ms" }),
    /** When the shop offered the download once more, its 24 hours over with none finished: once per line. */
    downloadRetryAt: integer("download_retry_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("order_lines_number_idx").on(t.lineNumber),
    index("order_lines_order_idx").on(t.orderId),
    index("order_lines_delivery_file_idx").on(t.deliveryFileId),
    // The pass's question, every few minutes: downloads cut short, not yet offered again (a few rows).
    index("order_lines_cut_download_idx")
      .on(t.downloadStartedAt)
      .where(sql`${t.downloadCutAt} is not null and ${t.downloadRetryAt} is null`),
  ],
);

/**
 * An edited video the shop delivers, stored once on disk however many order lines it
 * serves. It belongs to a contest's pool of files: its athlete and style come from its
 * name (matched when the matching screen is drawn, so renumbered athletes re-match) unless
 * the admin matched it by hand. Retired files (replaced, removed, or expired) are out of
 * the pool; their bytes are deleted once no download page needs them.
 */
export const deliveryFiles = sqliteTable(
  "delivery_files",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** Null once the contest is deleted: the orders' download pages still serve the file. */
    contestId: integer("contest_id").references(() => contests.id, { onDelete: "set null" }),
    /** Name the shop chose in the store (MEDIA_DIR or the bucket's key under its prefix); never the uploader's name. */
    storedName: text("stored_name").notNull(),
    originalName: text("original_name").notNull(),
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    /** The admin's own match, which wins over the name's. */
    athleteId: integer("athlete_id").references(() => athletes.id, { onDelete: "set null" }),
    orientation: text("orientation", { enum: ["vertical", "horizontal"] }),
    uploadedAt: integer("uploaded_at", { mode: "timestamp_ms" }).notNull(),
    retiredAt: integer("retired_at", { mode: "timestamp_ms" }),
    /** When its bytes were deleted (no download page needed them any longer). */
    deletedAt: integer("deleted_at", { mode: "timestamp_ms" }),
    /** The ffprobe reading taken at upload (null for files delivered before videos were probed). */
    video: text("video", { mode: "json" }).$type<VideoProbe>(),
    /** A frame of the video for the download page (media job `poster`), stored private as the video. */
    posterStoredName: text("poster_stored_name"),
    /** The 720p H.264 version for phones (media job `phone`); null until made, or when none is needed. */
    phoneStoredName: text("phone_stored_name"),
    phoneSize: integer("phone_size"),
    phoneVideo: text("phone_video", { mode: "json" }).$type<VideoProbe>(),
  },
  (t) => [
    uniqueIndex("delivery_files_stored_name_idx").on(t.storedName),
    index("delivery_files_contest_idx").on(t.contestId, t.retiredAt),
  ],
);

export const downloadPages = sqliteTable(
  "download_pages",
  {
    /** 128 random bits, base64url: the only key to the page. */
    id: text("id").primaryKey(),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    uniqueIndex("download_pages_order_idx").on(t.orderId),
    // The reminders' pass: the pages ending in the next days.
    index("download_pages_expires_idx").on(t.expiresAt),
  ],
);

/**
 * The reminder mails of an order (app/server/reminders/): the key of their stop link, made with
 * the order's first reminder, and when the customer used it. The reminders themselves are rows
 * of the outbox, each under its own dedupe key, so each is queued once.
 */
export const orderReminders = sqliteTable(
  "order_reminders",
  {
    orderId: integer("order_id")
      .primaryKey()
      .references(() => orders.id, { onDelete: "cascade" }),
    /** 128 random bits, base64url: the only key to the stop page. */
    stopToken: text("stop_token").notNull(),
    /** Set by the stop link: no further reminder of the order is queued, and none waiting is sent. */
    stoppedAt: integer("stopped_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("order_reminders_stop_token_idx").on(t.stopToken)],
);

/**
 * An order's family link (app/server/orders/customer/family-links.server.ts): a watch-only page
 * of its phone versions the parent shares with the family. One live link per order; a revoked
 * one is kept with its views. It ends with the order's download page (no date of its own).
 */
export const familyLinks = sqliteTable(
  "family_links",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    /** 128 random bits, base64url, as the download page's id: the only key to the watch page. */
    token: text("token").notNull(),
    createdAt: createdAt(),
    revokedAt: integer("revoked_at", { mode: "timestamp_ms" }),
    /** Times the watch page was opened (not the player's Range requests). */
    views: integer("views").notNull().default(0),
    lastViewedAt: integer("last_viewed_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    uniqueIndex("family_links_token_idx").on(t.token),
    // One live link per order: making a second while one lives is refused by the database too.
    uniqueIndex("family_links_live_order_idx")
      .on(t.orderId)
      .where(sql`revoked_at is null`),
  ],
);

export const CODE_PURPOSES = [
  "checkout",
  "registration",
  "admin-2fa",
  "password-change",
  "authenticator-change",
] as const;
export type CodePurpose = (typeof CODE_PURPOSES)[number];

export const verificationCodes = sqliteTable(
  "verification_codes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    purpose: text("purpose", { enum: CODE_PURPOSES }).notNull(),
    /** What the code unlocks: a checkout id, a user id, or a registration token. */
    subject: text("subject").notNull(),
    email: text("email").notNull(),
    /** Stored hashed so a database dump does not hand out live codes. */
    codeHash: text("code_hash").notNull(),
    /** A link token (registration mail), hashed too. */
    linkTokenHash: text("link_token_hash"),
    payload: text("payload", { mode: "json" }).$type<Record<string, unknown>>(),
    attempts: integer("attempts").notNull().default(0),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    consumedAt: integer("consumed_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("codes_subject_idx").on(t.purpose, t.subject, t.createdAt),
    // The per-address caps count an address's codes (and its wrong tries) over the last day.
    index("codes_email_idx").on(t.email, t.createdAt),
    uniqueIndex("codes_link_token_idx").on(t.linkTokenHash),
  ],
);

export const MAIL_LINK_PURPOSES = ["password-reset", "address-confirmation"] as const;
export type MailLinkPurpose = (typeof MAIL_LINK_PURPOSES)[number];

/** One-time links mailed to an account's address (password reset, confirming the address). */
export const mailLinks = sqliteTable(
  "mail_links",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    purpose: text("purpose", { enum: MAIL_LINK_PURPOSES }).notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** SHA-256 of the token: a database dump does not hand out live links. */
    tokenHash: text("token_hash").notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    usedAt: integer("used_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("mail_links_token_idx").on(t.tokenHash),
    index("mail_links_user_idx").on(t.userId, t.purpose),
  ],
);

/**
 * What a login record says happened. `api-token` is a request a script made with an admin's API
 * token, `api-token-refused` one whose token was unknown, revoked or expired: they are no logins,
 * so the lockout and the dashboard's login figures count only the others.
 */
export const LOGIN_OUTCOMES = [
  "success",
  "failure",
  "locked",
  "blocked",
  "second-factor-failure",
  "api-token",
  "api-token-refused",
] as const;

export const loginEvents = sqliteTable(
  "login_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    kind: text("kind", { enum: ["customer", "admin"] }).notNull(),
    email: text("email").notNull(),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    ip: text("ip").notNull(),
    userAgent: text("user_agent").notNull().default(""),
    outcome: text("outcome", { enum: LOGIN_OUTCOMES }).notNull(),
    riskScore: integer("risk_score").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index("login_events_created_idx").on(t.createdAt),
    index("login_events_email_idx").on(t.email, t.createdAt),
    index("login_events_ip_idx").on(t.ip, t.createdAt),
  ],
);

/** Stripe webhook event ids already handled, so a replay creates nothing. */
export const processedEvents = sqliteTable("processed_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  createdAt: createdAt(),
});

export const OUTBOX_STATUSES = ["pending", "sending", "sent", "failed", "cancelled"] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

/**
 * Every mail the shop sends, written here first (in the transaction of what causes it,
 * where there is one), then sent; retried while SMTP is down, marked sent once.
 */
export const mailOutbox = sqliteTable(
  "mail_outbox",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** A key per logical mail (e.g. delivery of order X), so the same mail is queued once. */
    dedupeKey: text("dedupe_key"),
    /** Mails of one topic (e.g. the codes of one checkout) replace each other: a newer one cancels older unsent ones. */
    topic: text("topic"),
    /** pending → sending (claimed by one sender until claimedUntil) → sent; failed after the last attempt; cancelled when superseded or expired. */
    status: text("status", { enum: OUTBOX_STATUSES }).notNull().default("pending"),
    claimedUntil: integer("claimed_until", { mode: "timestamp_ms" }),
    /** After this the mail is pointless (a code that has expired) and is not sent. */
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }),
    to: text("to_address").notNull(),
    subject: text("subject").notNull(),
    text: text("text_body").notNull(),
    html: text("html_body").notNull(),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    nextAttemptAt: integer("next_attempt_at", { mode: "timestamp_ms" }).notNull(),
    sentAt: integer("sent_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("mail_outbox_dedupe_idx").on(t.dedupeKey),
    index("mail_outbox_pending_idx").on(t.sentAt, t.nextAttemptAt),
    index("mail_outbox_due_idx").on(t.status, t.nextAttemptAt),
    index("mail_outbox_topic_idx").on(t.topic, t.status),
  ],
);

export const API_TOKEN_SCOPES = ["read", "write"] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

/**
 * Admin API tokens for scripts (`Authorization: Bearer …`): a request with one acts as its admin
 * without the cookie. Only the token's SHA-256 is kept; the token itself is shown once.
 */
export const apiTokens = sqliteTable(
  "api_tokens",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** SHA-256 (base64url) of the token. */
    tokenHash: text("token_hash").notNull(),
    /** The token's first characters, so the admin can tell which one a list row is. */
    prefix: text("prefix").notNull(),
    scope: text("scope", { enum: API_TOKEN_SCOPES }).notNull(),
    createdAt: createdAt(),
    /** Null: valid until revoked. */
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }),
    lastUsedAt: integer("last_used_at", { mode: "timestamp_ms" }),
    revokedAt: integer("revoked_at", { mode: "timestamp_ms" }),
  },
  (t) => [uniqueIndex("api_tokens_hash_idx").on(t.tokenHash), index("api_tokens_user_idx").on(t.userId)],
);

export const SESSION_KINDS = ["guest", "customer", "admin"] as const;

/**
 * Sessions, kept on the server so that ending one (logout, password change, "log out everywhere
 * else") really ends it: the cookie carries only a random token, and a row is looked up by the
 * token's SHA-256, so a copy of this table does not give working cookies.
 */
export const sessions = sqliteTable(
  "sessions",
  {
    /** SHA-256 (base64url) of the cookie's token. */
    id: text("id").primaryKey(),
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    /** guest: nobody logged in; customer: logged in; admin: logged in with the admin second factor done. */
    kind: text("kind", { enum: SESSION_KINDS }).notNull(),
    /** The session's values (checkout, login, toast) as JSON. */
    data: text("data").notNull(),
    createdAt: createdAt(),
    lastSeenAt: integer("last_seen_at", { mode: "timestamp_ms" }).notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    /** Where it was last used from, so the account page can tell devices apart. */
    userAgent: text("user_agent"),
    ipAddress: text("ip_address"),
  },
  (t) => [index("sessions_user_idx").on(t.userId), index("sessions_expires_idx").on(t.expiresAt)],
);

/** Counters for rate limits (per IP, per code endpoint), in the database so they survive restarts. */
export const rateLimits = sqliteTable(
  "rate_limits",
  {
    key: text("key").notNull(),
    windowStart: integer("window_start").notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] })],
);

/**
 * The built-in test card provider's own records (what Stripe keeps on its side),
 * so the test provider behaves like a real one: intents are created, confirmed and read back.
 */
export const testPaymentIntents = sqliteTable("test_payment_intents", {
  id: text("id").primaryKey(),
  checkoutId: text("checkout_id").notNull(),
  amount: integer("amount").notNull(),
  currency: text("currency").notNull().default("jpy"),
  status: text("status", { enum: ["requires_payment_method", "requires_action", "succeeded", "canceled"] })
    .notNull()
    .default("requires_payment_method"),
  lastError: text("last_error"),
  /** A konbini payment started: its voucher (confirmation number, deadline) until the store pays it. */
  konbiniConfirmationNumber: text("konbini_confirmation_number"),
  konbiniExpiresAt: integer("konbini_expires_at", { mode: "timestamp_ms" }),
  /** What the order needs, as Stripe's metadata carries it (server/payments/order-metadata.server.ts). */
  metadata: text("metadata", { mode: "json" }).$type<Record<string, string>>(),
  createdAt: createdAt(),
});

export const BACKUP_RUN_STATUSES = ["ok", "failed"] as const;

/**
 * Each try of the scheduled snapshot (backups/scheduler.server.ts): the snapshot stored, or why
 * not. Read by the back-office's 運用 view and /metrics (the age of the last good one).
 */
export const backupRuns = sqliteTable(
  "backup_runs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    startedAt: integer("started_at", { mode: "timestamp_ms" }).notNull(),
    finishedAt: integer("finished_at", { mode: "timestamp_ms" }).notNull(),
    status: text("status", { enum: BACKUP_RUN_STATUSES }).notNull(),
    /** The snapshot's name where it is kept (backups/shop-<time>.db.gz, or a file in BACKUP_DIR). */
    name: text("name"),
    bytes: integer("bytes"),
    /** 1 for the scheduled try, more for its retries. */
    attempt: integer("attempt").notNull().default(1),
    error: text("error"),
  },
  (t) => [index("backup_runs_status_idx").on(t.status, t.finishedAt)],
);

/**
 * One row counting the writes to what every visitor sees alike (contests, categories, athletes,
 * formats, price descriptions, media): triggers (migration 0013) add one on every insert, update
 * or delete, whoever writes, so the storefront's in-memory copies (catalogue-cache.server.ts)
 * know when they are stale.
 */
export const catalogueVersion = sqliteTable("catalogue_version", {
  id: integer("id").primaryKey(),
  version: integer("version").notNull().default(0),
});

/**
 * One row counting the writes to orders and their lines: triggers (migration 0016) add one on
 * every insert, update or delete, whoever writes, so the order list's summary kept in memory
 * (order-list.server.ts) knows when it is stale.
 */
export const ordersVersion = sqliteTable("orders_version", {
  id: integer("id").primaryKey(),
  version: integer("version").notNull().default(0),
});

/**
 * 返金: money given back for an order (chosen lines at their paid prices, or a typed amount) or
 * for a stray payment (the whole of it). Written before the provider is asked, under the order's
 * lock, so a double click, a replayed post or two admins at once refund once and never more
 * than was paid (`requestKey` is the form's own key; the provider's idempotency key is the row's id).
 */

export const refunds = sqliteTable(
  "refunds",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** One of these two: the order refunded, or the stray payment given back. */
    orderId: integer("order_id").references(() => orders.id),
    strayPaymentId: integer("stray_payment_id").references(() => strayPayments.id),
    paymentIntentId: text("payment_intent_id").notNull(),
    /** The order lines this refund pays back (each at its paid price); empty for a typed amount. */
    lineIds: text("line_ids", { mode: "json" })
      .$type<number[]>()
      .notNull()
      .default(sql`'[]'`),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull().default("jpy"),
    /** card goes back to the card; konbini is paid by bank transfer once the customer gives an account. */
    method: text("method", { enum: PAYMENT_METHODS }),
    /** The admin's reason, shown to the customer in the mail and on the order status page. */
    reason: text("reason").notNull(),
    /** The form's one-time key: a replayed post finds its refund instead of making another. */
    requestKey: text("request_key").notNull(),
    providerRefundId: text("provider_refund_id"),
    /**
     * requested: written, the provider not yet reached (retried); processing: accepted, money on its
     * way (a konbini refund waits for the customer's bank account); succeeded; failed (not counted).
     */
    status: text("status", { enum: REFUND_STATUSES }).notNull().default("requested"),
    failureReason: text("failure_reason"),
    /** Null for a refund made at the provider's dashboard and reported by its webhook. */
    adminUserId: integer("admin_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    succeededAt: integer("succeeded_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    uniqueIndex("refunds_request_key_idx").on(t.requestKey),
    uniqueIndex("refunds_provider_refund_idx").on(t.providerRefundId),
    index("refunds_order_idx").on(t.orderId),
    index("refunds_stray_payment_idx").on(t.strayPaymentId),
    // The sales report: refunds per day (when asked) and contest, failed ones left out.
    index("refunds_created_idx").on(t.createdAt, t.status),
  ],
);

/**
 * A succeeded payment that did not become an order (a second payment for a checkout that has
 * its order, a payment without a usable checkout, another amount or currency; after a restore,
 * one whose order cannot be made again or that was partly refunded). Recorded once per
 * payment, listed in the back-office with a one-click full refund, and mailed to the admins.
 * The same ledger holds the refunds the provider reports that fit no order (more than is left,
 * another currency, not a whole positive amount): once per refund, never refunded from here.
 */
export const STRAY_PAYMENT_REASONS = [
  "second_payment",
  "no_checkout",
  "amount",
  "currency",
  // The payment's checkout cannot be made from what it carries (its contest or an athlete gone).
  "order_not_restorable",
  // Found after a restore partly refunded: no order made, the rest is the admin's to judge.
  "partly_refunded",
  // A refund the provider reports that does not fit its payment (refunds/refund-fit.server.ts):
  // more than is left of it, another currency, or not a whole positive amount (or not the one
  // the shop asked for). Written here instead of as the order's refund.
  "refund_over",
  "refund_currency",
  "refund_amount",
] as const;
export type StrayPaymentReason = (typeof STRAY_PAYMENT_REASONS)[number];

export const strayPayments = sqliteTable(
  "stray_payments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    paymentIntentId: text("payment_intent_id").notNull(),
    reason: text("reason", { enum: STRAY_PAYMENT_REASONS }).notNull(),
    /** In the payment's currency's smallest unit (yen for jpy). */
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    checkoutId: text("checkout_id"),
    /** The order the checkout already has (a second payment), when there is one. */
    orderId: integer("order_id").references(() => orders.id),
    /** The checkout's verified address, when there is one: a konbini refund's instructions go there. */
    customerEmail: text("customer_email"),
    detail: text("detail").notNull(),
    /**
     * A refund report's entry: the provider's refund (re_…), or the charge (ch_…) whose
     * charge.refunded said a total that fits no order; null for a payment's own entry. A payment
     * can have several such reports besides its own entry, so each is keyed by this id instead.
     */
    providerRefundId: text("provider_refund_id"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("stray_payments_intent_idx")
      .on(t.paymentIntentId)
      .where(sql`provider_refund_id is null`),
    uniqueIndex("stray_payments_refund_idx").on(t.providerRefundId),
    index("stray_payments_created_idx").on(t.createdAt),
  ],
);

/** The test provider's own refunds (what Stripe keeps on its side), keyed as Stripe keys requests. */
export const testRefunds = sqliteTable(
  "test_refunds",
  {
    id: text("id").primaryKey(),
    paymentIntentId: text("payment_intent_id").notNull(),
    amount: integer("amount").notNull(),
    /** As Stripe: a card refund succeeds; a konbini one requires_action until the customer's account is given. */
    status: text("status", { enum: ["requires_action", "succeeded", "failed"] }).notNull(),
    method: text("method", { enum: PAYMENT_METHODS }).notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    shopRefundId: integer("shop_refund_id"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("test_refunds_idempotency_idx").on(t.idempotencyKey)],
);

export { MEDIA_JOB_KINDS, MEDIA_JOB_STATUSES };
export type MediaJobKind = JobKind;
/** sample: a contest's video (media_items); delivery: a delivered video (delivery_files). */
export const MEDIA_JOB_SUBJECTS = ["sample", "delivery"] as const;
export type MediaJobSubject = (typeof MEDIA_JOB_SUBJECTS)[number];

/**
 * Work on an uploaded video done in the background (ffmpeg): its poster frame, its phone version.
 * As reliable as the mail outbox: a worker claims a job with one UPDATE and holds it by a lease it
 * renews while ffmpeg runs; a job whose worker died (kill -9, a restart) is taken again, a failed
 * try is retried with back-off, and after the last one the admin sees why and may run it again.
 */
export const mediaJobs = sqliteTable(
  "media_jobs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    kind: text("kind", { enum: MEDIA_JOB_KINDS }).notNull(),
    subject: text("subject", { enum: MEDIA_JOB_SUBJECTS }).notNull(),
    subjectId: integer("subject_id").notNull(),
    status: text("status", { enum: MEDIA_JOB_STATUSES }).notNull().default("waiting"),
    /** Percent done, from ffmpeg's own progress output. */
    progress: integer("progress").notNull().default(0),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at", { mode: "timestamp_ms" }).notNull(),
    /** The worker holding it: `host:pid:random`, so a restarted process knows its predecessor's jobs. */
    claimedBy: text("claimed_by"),
    claimedUntil: integer("claimed_until", { mode: "timestamp_ms" }),
    /** Why the last try failed, or why a job made nothing (an original already light). */
    detail: text("detail"),
    createdAt: createdAt(),
    finishedAt: integer("finished_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    uniqueIndex("media_jobs_subject_idx").on(t.subject, t.subjectId, t.kind),
    index("media_jobs_due_idx").on(t.status, t.nextAttemptAt),
  ],
);

/**
 * A contest's promotions (lib/rules/promotions.ts): 早割 prices per style until a time, a セット割
 * per athlete in both styles, a まとめ割 from N videos. A contest without a row has none. Writes
 * count in the catalogue version (migration 0022's triggers): the order form's copy is cached.
 */
export const contestPromotions = sqliteTable("contest_promotions", {
  contestId: integer("contest_id")
    .primaryKey()
    .references(() => contests.id, { onDelete: "cascade" }),
  earlyBirdVerticalPrice: integer("early_bird_vertical_price"),
  earlyBirdHorizontalPrice: integer("early_bird_horizontal_price"),
  earlyBirdEndsAt: integer("early_bird_ends_at", { mode: "timestamp_ms" }),
  setDiscount: integer("set_discount"),
  quantityMinItems: integer("quantity_min_items"),
  quantityDiscountKind: text("quantity_discount_kind", { enum: AMOUNT_KINDS }),
  quantityDiscountValue: integer("quantity_discount_value"),
  updatedAt: integer("updated_at", { mode: "timestamp_ms" }),
});

/** A shop-wide coupon code. Never deleted once used (orders name it): disabled instead. */
export const coupons = sqliteTable(
  "coupons",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** Upper case, as lib/rules/coupons.ts normalises what customers type. */
    code: text("code").notNull(),
    /** The admin's own note of who it is for (never shown to customers). */
    label: text("label").notNull().default(""),
    kind: text("kind", { enum: AMOUNT_KINDS }).notNull(),
    value: integer("value").notNull(),
    /** The order's total after the contest's promotions must be at least this. */
    minTotal: integer("min_total").notNull().default(0),
    validFrom: integer("valid_from", { mode: "timestamp_ms" }),
    validUntil: integer("valid_until", { mode: "timestamp_ms" }),
    /** The contests it is for; null: every contest. */
    contestIds: text("contest_ids", { mode: "json" }).$type<number[]>(),
    maxUses: integer("max_uses"),
    maxUsesPerEmail: integer("max_uses_per_email"),
    disabledAt: integer("disabled_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }),
  },
  (t) => [uniqueIndex("coupons_code_idx").on(t.code)],
);

/**
 * A coupon's use by one checkout: held when its payment is prepared (so two checkouts cannot
 * both take the last use), then the order's once paid. A hold whose payment is ended is deleted.
 */
export const couponUses = sqliteTable(
  "coupon_uses",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    couponId: integer("coupon_id")
      .notNull()
      .references(() => coupons.id, { onDelete: "cascade" }),
    checkoutId: text("checkout_id").notNull(),
    orderId: integer("order_id").references(() => orders.id, { onDelete: "set null" }),
    email: text("email").notNull(),
    /** The discount it gave (the order's, once paid). */
    amount: integer("amount").notNull().default(0),
    heldAt: integer("held_at", { mode: "timestamp_ms" }).notNull(),
    usedAt: integer("used_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    uniqueIndex("coupon_uses_checkout_idx").on(t.couponId, t.checkoutId),
    index("coupon_uses_email_idx").on(t.couponId, t.email),
    index("coupon_uses_order_idx").on(t.orderId),
  ],
);
