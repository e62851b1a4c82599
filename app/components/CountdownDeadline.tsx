import { useEffect } from "react";
import { formatDateTime } from "~/lib/rules/format";
import { useSecondsLeft } from "~/lib/hooks/use-seconds-left";

// The login pages' lock lives with the count it reads, so /login does not load this component
// (and the date formatting it draws the deadline with) for a lock it shows only after a refusal.
export { useLockUntil } from "~/lib/hooks/use-seconds-left";

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
