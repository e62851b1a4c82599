import { parseWithZod } from "@conform-to/zod";
import { forgotPasswordSchema, loginSchema, registerSchema, resetPasswordSchema } from "./account-schemas";
import { orderLookupSchema } from "./order-lookup-schemas";
import { customerSchema, orderFormDraftSchema, orderFormSchema } from "./order-schemas";
import { receiptAddresseeSchema } from "./receipt-schemas";

/**
 * The storefront forms' browser-side validation: the same zod schemas the server checks
 * with. Loaded on demand by useDeferredValidation, so zod is not part of these pages'
 * first load on a phone.
 */
type Context = { formData: FormData; submitter: HTMLInputElement | HTMLButtonElement | null };

export const clientValidators = {
  login: ({ formData }: Context) => parseWithZod(formData, { schema: loginSchema }),
  register: ({ formData }: Context) => parseWithZod(formData, { schema: registerSchema }),
  forgotPassword: ({ formData }: Context) => parseWithZod(formData, { schema: forgotPasswordSchema }),
  resetPassword: ({ formData }: Context) => parseWithZod(formData, { schema: resetPasswordSchema }),
  customer: ({ formData }: Context) => parseWithZod(formData, { schema: customerSchema }),
  orderLookup: ({ formData }: Context) => parseWithZod(formData, { schema: orderLookupSchema }),
  receiptAddressee: ({ formData }: Context) => parseWithZod(formData, { schema: receiptAddresseeSchema }),
  orderForm: ({ formData, submitter }: Context) => {
    // Adding and removing items saves the draft as it is; only "next" is validated.
    const intent = submitter?.getAttribute("value") ?? "next";
    return parseWithZod(formData, { schema: intent === "next" ? orderFormSchema : orderFormDraftSchema });
  },
};
export type ClientValidators = typeof clientValidators;
