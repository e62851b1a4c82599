import { z } from "zod";
import { RECEIPT_ADDRESSEE_MAX } from "../rules/receipt";

export { RECEIPT_ADDRESSEE_MAX };

/**
 * The 領収書's addressee (宛名), shared by conform in the browser and parseForm on the server.
 * It may be left empty: the receipt then shows a blank line before 「様」, to be written in by
 * hand, as a shop's paper receipt does. 上様 is not used: many employers' expense rules refuse it,
 * and a 適格簡易請求書 needs no addressee at all.
 */
export const RECEIPT_ADDRESSEE_MESSAGES = {
  tooLong: `宛名は${RECEIPT_ADDRESSEE_MAX}文字以内で入力してください`,
  badCharacters: "宛名に使用できない文字（改行や制御文字）が含まれています",
} as const;

// Control characters (line breaks, tabs, escapes) and the bidirectional overrides, which could
// reorder what a printed document seems to say.
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

export const receiptAddresseeSchema = z.object({
  addressee: z
    .string({ invalid_type_error: RECEIPT_ADDRESSEE_MESSAGES.badCharacters })
    .trim()
    .refine((value) => !FORBIDDEN.test(value), RECEIPT_ADDRESSEE_MESSAGES.badCharacters)
    // Counted in characters as a person counts them (an emoji or a rare kanji is one, not two).
    .refine((value) => Array.from(value).length <= RECEIPT_ADDRESSEE_MAX, RECEIPT_ADDRESSEE_MESSAGES.tooLong)
    .default(""),
});

export type ReceiptAddresseeValues = z.infer<typeof receiptAddresseeSchema>;
