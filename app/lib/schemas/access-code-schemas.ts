import { z } from "zod";
import { ACCESS_CODE_INTENT } from "../rules/access-code";

/** The order form's 合言葉 entry: what a parent types from the venue's flyer. */
export const accessCodeEntrySchema = z.object({
  intent: z.literal(ACCESS_CODE_INTENT),
  accessCode: z
    .string({ required_error: "合言葉を入力してください", invalid_type_error: "合言葉を入力してください" })
    .trim()
    .min(1, "合言葉を入力してください")
    .max(100, "合言葉は100文字以内で入力してください"),
});
