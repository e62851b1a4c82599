import { z } from "zod";
import { readHead, sniffImage } from "../sniff.server";
import { integerBetween, isExistingFile, optionalText } from "./values.server";

/** What the shop promises and shows: the seller (特定商取引法・receipts), download and delivery days, the banner. */
export const shopSettings = z.object({
  DOWNLOAD_EXPIRY_DAYS: z.coerce.number().int().min(1, "1 以上の整数で指定してください").max(365).default(30),
  /** Business days from payment to delivery promised on the order status page (weekends and holidays skipped). */
  DELIVERY_BUSINESS_DAYS: integerBetween(0, 30).default(3),
  /** 適格請求書発行事業者の登録番号 (T + 13 digits). When set, receipts are 適格簡易請求書. */
  SELLER_INVOICE_NUMBER: optionalText.pipe(
    z
      .string()
      .regex(/^T\d{13}$/, "T に続く 13 桁の数字で指定してください（例: T1234567890123）")
      .optional(),
  ),
  SELLER_NAME: z.string().trim().min(1).default("株式会社コンテストビデオ（デモ）"),
  SELLER_MANAGER: z.string().trim().min(1).default("山田 太郎"),
  SELLER_ADDRESS: z.string().trim().min(1).default("〒100-0005 東京都千代田区丸の内1-1-1 デモビル5階"),
  SELLER_PHONE: z.string().trim().min(1).default("請求があった場合には遅滞なく開示いたします"),
  SELLER_EMAIL: z
    .string()
    .trim()
    .email("メールアドレスの形式が正しくありません")
    .default("support@example.jp"),
  SELLER_HOURS: z.string().trim().min(1).default("平日 10:00〜17:00（土日祝・年末年始を除く）"),
  /** The home page's banner photo: a JPEG, PNG or WebP file on the server (see app/server/media/home-banner.server.ts). */
  HOME_BANNER_IMAGE: optionalText.pipe(
    z
      .string()
      .refine(isExistingFile, "画像ファイルが見つかりません（サーバー上のファイルのパスを指定してください）")
      .refine(isBannerImage, "JPEG・PNG・WebP の画像ファイルを指定してください")
      .optional(),
  ),
  /** What the banner photo shows, for those who cannot see it. */
  HOME_BANNER_ALT: optionalText,
});

function isBannerImage(file: string) {
  try {
    return sniffImage(readHead(file)) !== null;
  } catch {
    return false;
  }
}
