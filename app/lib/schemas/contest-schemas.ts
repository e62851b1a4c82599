import { z } from "zod";
import { NAME_WITHOUT_SLUG_MESSAGE, slugKey } from "../rules/slug";

/** 新規大会追加: one field, the name, trimmed and non-blank. */
export const newContestSchema = z.object({
  name: z
    .string({ required_error: "大会名を入力してください", invalid_type_error: "大会名を入力してください" })
    .trim()
    .min(1, "大会名を入力してください")
    .max(200, "大会名は200文字以内で入力してください")
    .refine((name) => name === "" || slugKey(name) !== "", NAME_WITHOUT_SLUG_MESSAGE),
});

/** `true` or `false`, as JSON sends it or as a form-encoded body spells it. */
const flag = (name: string) => {
  const message = `${name} は true か false で指定してください`;
  return z.preprocess(
    (value) => (value === "true" ? true : value === "false" ? false : value),
    z.boolean({ invalid_type_error: message }).optional(),
  );
};

/**
 * The list's 動画 / 写真 switches as the JSON API sends them: the new value of each (the
 * screen's buttons flip the stored one). Either may be left out.
 */
export const contestFlagsSchema = z.object({
  videoPublished: flag("videoPublished"),
  photoPublished: flag("photoPublished"),
});
