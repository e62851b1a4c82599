/**
 * The download page after a browser was turned away from one of its videos: the page
 * checks the refusal again itself (`downloadRefusal`), so the query only says which line.
 */
export function downloadRefusedPath(pageId: string, lineId: number): string {
  return `/download/${encodeURIComponent(pageId)}?refused=${lineId}`;
}

/** お問い合わせ with the order number filled in (`/contact?order=12345678`). */
export function contactPath(orderNumber?: string | null): string {
  return orderNumber ? `/contact?order=${encodeURIComponent(orderNumber)}` : "/contact";
}
