import { useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";

/** Often enough that 処理中 n% moves; the loader's job read is one indexed query. */
export const PROCESSING_REFRESH_MS = 3_000;

/**
 * Reloads the page's data every few seconds while `processing` (a video's poster or phone
 * version is waiting or being made), and stops once nothing is: the admin watches the state
 * change without reloading. Without JavaScript the page says how to see the latest state instead.
 */
export function useRefreshWhileProcessing(processing: boolean): void {
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  const idle = revalidator.state === "idle";
  useEffect(() => {
    if (!processing || !idle) return;
    // One reload at a time: the next is set only once the last has come back (idle again).
    const timer = window.setTimeout(() => revalidate.current(), PROCESSING_REFRESH_MS);
    return () => window.clearTimeout(timer);
  }, [processing, idle]);
}
