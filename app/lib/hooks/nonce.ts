import { createContext, useContext } from "react";

/**
 * The request's CSP nonce, provided by entry.server while rendering. In the browser it
 * is empty: browsers hide nonce attributes from the page, and hydration does not re-run scripts.
 */
export const NonceContext = createContext("");

export function useNonce(): string {
  return useContext(NonceContext);
}
