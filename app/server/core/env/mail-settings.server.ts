import { z } from "zod";
import { optionalText } from "./values.server";

/** How mail leaves the shop: an SMTP server, or (unset) files in MAIL_DIR. */
export const mailSettings = z.object({
  SMTP_URL: optionalText.pipe(
    z
      .string()
      .regex(/^smtps?:\/\/[^\s]+$/, "smtp:// または smtps:// で始まる URL を指定してください")
      .optional(),
  ),
  MAIL_FROM: z
    .string()
    .trim()
    .email("送信元メールアドレスの形式が正しくありません")
    .default("shop@example.jp"),
});
