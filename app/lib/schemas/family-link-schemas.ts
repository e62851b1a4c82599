import { z } from "zod";

/**
 * The family link's two buttons on the download page (家族に共有するリンクを作る / リンクを無効にする):
 * the button's `intent` is the whole form. Read by the page's action with parseForm.
 */
export const familyLinkSchema = z.object({
  intent: z.enum(["family-link-make", "family-link-revoke"], {
    errorMap: () => ({ message: "操作を読み取れませんでした。ページを開き直してお試しください。" }),
  }),
});
