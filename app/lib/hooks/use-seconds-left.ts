import { useEffect, useState } from "react";

/**
 * Seconds left until `end` (epoch ms), counted down in the browser each second; null before
 * the page is hydrated (and without a deadline), so the server's HTML never shows a count.
 */
export function useSecondsLeft(end: number | null): number | null {
  const [left, setLeft] = useState<number | null>(null);
  useEffect(() => {
    if (end === null) {
      setLeft(null);
      return;
    }
    const tick = () => setLeft(Math.max(0, Math.round((end - Date.now()) / 1000)));
    tick();
    const timer = window.setInterval(tick, 1000);
    return () => window.clearInterval(timer);
  }, [end]);
  return left;
}

/** A login locked until the given time (epoch ms); with JavaScript the button comes back by itself when it passes. */
export function useLockUntil(lockedUntil: number | null): boolean {
  const left = useSecondsLeft(lockedUntil);
  return lockedUntil !== null && left !== 0;
}
