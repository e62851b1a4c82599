import { useForm } from "@conform-to/react";

/** conform's `useForm` options, for a form whose values have the shape `Schema`. */
export type ShopFormOptions<
  Schema extends Record<string, unknown>,
  FormValue = Schema,
  FormError = string[],
> = Parameters<typeof useForm<Schema, FormValue, FormError>>[0];

/**
 * conform's `useForm` with the shop's defaults, so every form checks a field when the customer
 * leaves it (not at each key, which flags an address half typed) and, once flagged, clears the
 * error as soon as the value is right. A form that checks only on submit (a table of rows, an
 * inline edit) passes its own `shouldValidate`/`shouldRevalidate`; every other option is conform's.
 *
 * Kept free of zod: the storefront's forms validate with `useDeferredValidation`, which loads zod
 * only when the form is first touched; admin forms pass `validateWith(schema)` as `onValidate`.
 */
export function useShopForm<Schema extends Record<string, unknown>, FormValue = Schema, FormError = string[]>(
  options: ShopFormOptions<Schema, FormValue, FormError>,
) {
  return useForm<Schema, FormValue, FormError>({
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    ...options,
  });
}
