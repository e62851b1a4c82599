import { parseWithZod } from "@conform-to/zod/v3";
import { configureCoercion } from "@conform-to/zod/v3/future";
import type { ZodTypeAny } from "zod";
import { formNumber } from "../rules/typed-amounts";

/**
 * Every form's reading of its post, in the browser and on the server: conform's `parseWithZod`
 * with the shop's reading of a number field. Conform's own reads numbers with JavaScript's
 * Number(), so a price typed `0x10` was saved as 16 and a coupon's `1e3` as 1,000; here a number
 * field is read by `formNumber` (a whole number as the pages write it, full-width digits and
 * thousands' commas included). The JSON API parses its own bodies and is not concerned.
 * ESLint allows `parseWithZod` nowhere else.
 */
const { coerceFormValue } = configureCoercion({ type: { number: formNumber } });

export function parseForm<Schema extends ZodTypeAny>(
  formData: FormData | URLSearchParams,
  { schema }: { schema: Schema },
) {
  return parseWithZod(formData, { schema: coerceFormValue(schema), disableAutoCoercion: true });
}
