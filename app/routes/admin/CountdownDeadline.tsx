import { useEffect, useState } from "react";
import { formatDateTime } from "~/lib/format";

/**
 * Time left until a deadline. Without JS it reads as the deadline's clock time;
 * with JS it counts down the seconds and calls onExpire at zero.
 */
export function CountdownDeadline({ deadline, onExpire }: { deadline: string; onExpire: () => void }) {
  const end = new Date(deadline).getTime();
  const [left, setLeft] = useState<number | null>(null);

  useEffect(() => {
    const tick = () => {
      const seconds = Math.max(0, Math.round((end - Date.now()) / 1000));
      setLeft(seconds);
      if (seconds === 0) onExpire();
    };
    tick();
    const timer = window.setInterval(tick, 1000);
    return () => window.clearInterval(timer);
  }, [end, onExpire]);

  if (left === null) return <p className="text-sm text-zinc-600">有効期限: {formatDateTime(end)}</p>;
  const minutes = Math.floor(left / 60);
  const seconds = String(left % 60).padStart(2, "0");
  return (
    <p className="text-sm text-zinc-600" role="timer" aria-live="off">
      残り時間: <span className="font-mono font-semibold text-zinc-900">{minutes}:{seconds}</span>（{left}秒）
    </p>
  );
}
