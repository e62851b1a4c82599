import { z } from "zod";

const digitsOnly = (value: unknown) =>
  typeof value === "string"
    ? value.replace(/[\s-]/g, "").replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0))
    : value;

function luhn(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/**
 * The total the payment page showed when the customer pressed pay: the server refuses to charge
 * when the order's total has changed since (the items were changed in another tab).
 */
const shownTotal = z.number().int().nonnegative().optional();

/** The test provider's card form (テストモード). Stripe's own form replaces it when Stripe is configured. */
export const testCardSchema = z.object({
  shownTotal,
  cardholderName: z
    .string({ required_error: "カード名義を入力してください" })
    .trim()
    .min(1, "カード名義を入力してください")
    .max(100, "カード名義が長すぎます"),
  cardNumber: z.preprocess(
    digitsOnly,
    z
      .string({ required_error: "カード番号を入力してください" })
      .regex(/^\d{13,19}$/, "カード番号が正しくありません")
      .refine(luhn, "カード番号が正しくありません"),
  ),
  expiry: z
    .string({ required_error: "有効期限を入力してください" })
    .trim()
    .regex(/^(0[1-9]|1[0-2])\s*\/\s*(\d{2})$/, "有効期限は MM/YY の形式で入力してください")
    .refine((value) => {
      const [month, year] = value.split("/").map((part) => Number(part.trim()));
      const end = new Date(2000 + (year ?? 0), month ?? 0, 1);
      return end.getTime() > Date.now();
    }, "有効期限が切れています"),
  cvc: z.preprocess(
    digitsOnly,
    z
      .string({ required_error: "セキュリティコードを入力してください" })
      .regex(/^\d{3,4}$/, "セキュリティコードが正しくありません"),
  ),
});

/** The test provider's konbini form: choosing to pay at a store asks for nothing more. */
export const testKonbiniSchema = z.object({ method: z.literal("konbini"), shownTotal });

/** テストモード's stand-ins for a store payment and a voucher deadline on the order status page. */
export const konbiniTestSchema = z.object({ event: z.enum(["paid", "expired"]) });
