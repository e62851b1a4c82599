import { env } from "./env.server";

/** The seller's details for the 特定商取引法 notice, the privacy policy and mails. From configuration. */
export type SellerInfo = {
  name: string;
  manager: string;
  address: string;
  phone: string;
  email: string;
  hours: string;
  siteUrl: string;
  downloadExpiryDays: number;
  paymentProvider: string;
  /** 適格請求書発行事業者の登録番号 (T + 13 digits), when the seller is registered; receipts are then 適格簡易請求書. */
  invoiceNumber: string | null;
};

export function sellerInfo(): SellerInfo {
  const config = env();
  return {
    name: config.SELLER_NAME,
    manager: config.SELLER_MANAGER,
    address: config.SELLER_ADDRESS,
    phone: config.SELLER_PHONE,
    email: config.SELLER_EMAIL,
    hours: config.SELLER_HOURS,
    siteUrl: config.SITE_URL,
    downloadExpiryDays: config.DOWNLOAD_EXPIRY_DAYS,
    paymentProvider: "Stripe, Inc.（米国）",
    invoiceNumber: config.SELLER_INVOICE_NUMBER ?? null,
  };
}
