import { parseForm } from "./parse-form";
import type { ZodTypeAny } from "zod";

/**
 * A form's browser-side check with the same zod schema the action parses, so the admin sees the
 * server's messages before the post leaves: `useShopForm({ onValidate: validateWith(schema) })`.
 * For admin screens only: it pulls zod into the page's first load, which the storefront avoids
 * with `useDeferredValidation`.
 */
export function validateWith<Schema extends ZodTypeAny>(schema: Schema) {
  return ({ formData }: { formData: FormData }) => parseForm(formData, { schema });
}
