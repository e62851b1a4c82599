import { parseForm } from "./parse-form";
import {
  forgotPasswordSchema,
  loginSchema,
  newPasswordSchema,
  registerSchema,
  resetPasswordSchema,
} from "./account-schemas";
import { accessCodeEntrySchema } from "./access-code-schemas";
import { checkoutCouponSchema } from "./checkout-coupon-schemas";
import { orderLookupSchema } from "./order-lookup-schemas";
import { testCardSchema, testKonbiniSchema } from "./payment-schemas";
import { customerSchema, orderFormDraftSchema, orderFormSchema } from "./order-schemas";
import { receiptAddresseeSchema } from "./receipt-schemas";

/**
 * The storefront forms' browser-side validation: the same zod schemas the server checks
 * with. Loaded on demand by useDeferredValidation, so zod is not part of these pages'
 * first load on a phone.
 */
type Context = { formData: FormData; submitter: HTMLInputElement | HTMLButtonElement | null };

export const clientValidators = {
  login: ({ formData }: Context) => parseForm(formData, { schema: loginSchema }),
  register: ({ formData }: Context) => parseForm(formData, { schema: registerSchema }),
  forgotPassword: ({ formData }: Context) => parseForm(formData, { schema: forgotPasswordSchema }),
  resetPassword: ({ formData }: Context) => parseForm(formData, { schema: resetPasswordSchema }),
  newPassword: ({ formData }: Context) => parseForm(formData, { schema: newPasswordSchema }),
  customer: ({ formData }: Context) => parseForm(formData, { schema: customerSchema }),
  orderLookup: ({ formData }: Context) => parseForm(formData, { schema: orderLookupSchema }),
  receiptAddressee: ({ formData }: Context) => parseForm(formData, { schema: receiptAddresseeSchema }),
  accessCode: ({ formData }: Context) => parseForm(formData, { schema: accessCodeEntrySchema }),
  checkoutCoupon: ({ formData }: Context) => parseForm(formData, { schema: checkoutCouponSchema }),
  testCard: ({ formData }: Context) => parseForm(formData, { schema: testCardSchema }),
  testKonbini: ({ formData }: Context) => parseForm(formData, { schema: testKonbiniSchema }),
  orderForm: ({ formData, submitter }: Context) => {
    // Adding and removing items saves the draft as it is; only "next" is validated.
    const intent = submitter?.getAttribute("value") ?? "next";
    return parseForm(formData, { schema: intent === "next" ? orderFormSchema : orderFormDraftSchema });
  },
};
export type ClientValidators = typeof clientValidators;
