import { useEffect, useState } from "react";
import { formatDateTime } from "~/lib/rules/format";

/**
 * Seconds left until `end` (epoch ms), counted down in the browser each second; null before
 * the page is hydrated (and without a deadline), so the server's HTML never shows a count.
 */
function useSecondsLeft(end: number | null): number | null {
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

/**
 * Time left until a deadline. Without JS it reads as the deadline's clock time;
 * with JS it counts down the seconds and calls onExpire at zero.
 */
export function CountdownDeadline({ deadline, onExpire }: { deadline: string; onExpire: () => void }) {
  const end = new Date(deadline).getTime();
  const left = useSecondsLeft(end);
  useEffect(() => {
    if (left === 0) onExpire();
  }, [left, onExpire]);

  if (left === null) return <p className="text-sm text-zinc-600">有効期限: {formatDateTime(end)}</p>;
  const minutes = Math.floor(left / 60);
  const seconds = String(left % 60).padStart(2, "0");
  return (
    <p className="text-sm text-zinc-600" role="timer" aria-live="off">
      残り時間:{" "}
      <span className="font-mono font-semibold text-zinc-900">
        {minutes}:{seconds}
      </span>
      （{left}秒）
    </p>
  );
}

/** A login locked until the given time (epoch ms); with JavaScript the button comes back by itself when it passes. */
export function useLockUntil(lockedUntil: number | null): boolean {
  const left = useSecondsLeft(lockedUntil);
  return lockedUntil !== null && left !== 0;
}
