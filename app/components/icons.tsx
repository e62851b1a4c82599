/** The round marks of the result pages: done (green tick) and could not be done (exclamation). */
function RoundMark({ className, mark }: { className: string; mark: "done" | "problem" }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className={className}
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
    >
      <circle cx="12" cy="12" r="10" />
      {mark === "done" ? (
        <path d="m7.5 12.5 3 3 6-6.5" strokeLinecap="round" strokeLinejoin="round" />
      ) : (
        <path d="M12 7v6M12 16.5v.5" strokeLinecap="round" />
      )}
    </svg>
  );
}

export function DoneMark({ className = "mx-auto h-16 w-16 text-emerald-600" }: { className?: string }) {
  return <RoundMark className={className} mark="done" />;
}

export function ProblemMark({ className = "mx-auto h-14 w-14 text-brand-600" }: { className?: string }) {
  return <RoundMark className={className} mark="problem" />;
}
