import { z } from "zod";

/**
 * 注文状況の確認 for a guest without the link: the order number and the order's e-mail address.
 * Shared by conform in the browser and parseForm on the server. Digits typed on a Japanese
 * keyboard (全角) and spaces are forgiven, as in the code step.
 */
export const orderLookupSchema = z.object({
  orderNumber: z
    .string({
      required_error: "注文番号を入力してください",
      invalid_type_error: "注文番号を入力してください",
    })
    .transform((value) =>
      value.replace(/\s/g, "").replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0)),
    )
    .pipe(
      z
        .string()
        .min(1, "注文番号を入力してください")
        .regex(/^\d{8}$/, "注文番号は8桁の数字で入力してください"),
    ),
  email: z
    .string({
      required_error: "メールアドレスを入力してください",
      invalid_type_error: "メールアドレスを入力してください",
    })
    .trim()
    .min(1, "メールアドレスを入力してください")
    .max(254, "メールアドレスが長すぎます")
    .email("メールアドレスの形式が正しくありません"),
});

export type OrderLookupValues = z.infer<typeof orderLookupSchema>;
