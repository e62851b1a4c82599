import type { ReactNode } from "react";

/**
 * A table wider than a phone, scrolled sideways: by keyboard too (focusable and named, as axe's
 * scrollable-region-focusable asks), its edges shaded while more lies beyond them (scroll-edges,
 * without JavaScript). `className` adds the box's own margins, corners and shadow.
 */
export function SideScroll({
  label,
  className = "",
  describedBy,
  children,
}: {
  label: string;
  className?: string;
  describedBy?: string;
  children: ReactNode;
}) {
  return (
    <div
      role="region"
      aria-label={label}
      aria-describedby={describedBy}
      tabIndex={0}
      className={`overflow-x-auto scroll-edges focus-visible:outline-2 focus-visible:outline-brand-600 ${className}`}
    >
      {children}
    </div>
  );
}
