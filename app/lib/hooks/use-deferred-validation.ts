import { useCallback, useRef, useState } from "react";
import type { ClientValidators } from "../schemas/client-validators";

/**
 * Browser-side validation for a storefront form, loaded when the customer first touches
 * the form instead of with the page. zod and its conform binding are about 23 KB gzip,
 * a fifth of the page's JavaScript, which a parent on a slow phone would otherwise wait
 * for before the page is ready. Until they arrive (and always with JS off) the post is
 * validated by the server with the same schema, so nothing is checked less.
 *
 *   const validation = useDeferredValidation("login");
 *   useForm({ onValidate: validation.validate, … });
 *   <Form onFocus={validation.load} …>
 */
export function useDeferredValidation<Name extends keyof ClientValidators>(name: Name) {
  const [validate, setValidate] = useState<ClientValidators[Name] | undefined>(undefined);
  const started = useRef(false);
  const load = useCallback(() => {
    if (started.current) return;
    started.current = true;
    import("../schemas/client-validators").then(
      ({ clientValidators }) => setValidate(() => clientValidators[name]),
      // Offline or a stale deployment: the server still validates every post.
      () => {
        started.current = false;
      },
    );
  }, [name]);
  return { validate, load };
}
