import { z } from "zod";
import { NAME_WITHOUT_SLUG_MESSAGE, slugKey } from "./slug";

/** 新規大会追加: one field, the name, trimmed and non-blank. */
export const newContestSchema = z.object({
  name: z
    .string({ required_error: "大会名を入力してください" })
    .trim()
    .min(1, "大会名を入力してください")
    .max(200, "大会名は200文字以内で入力してください")
    .refine((name) => name === "" || slugKey(name) !== "", NAME_WITHOUT_SLUG_MESSAGE),
});
