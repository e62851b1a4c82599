import { Link } from "@remix-run/react";
import { orderListHref, type OrderListPlace } from "./order-list-link";

/** ← 新しい注文 / 古い注文 →, shown only when the list has more than one page. */
export function OrderListPaging({ place, pages }: { place: OrderListPlace; pages: number }) {
  const { page } = place;
  if (pages <= 1) return null;
  return (
    <nav aria-label="ページ" className="mt-4 flex items-center justify-between text-sm">
      {page > 1 ? <Link to={orderListHref(place, { page: String(page - 1) })}>← 新しい注文</Link> : <span />}
      <span>
        {page} / {pages}
      </span>
      {page < pages ? (
        <Link to={orderListHref(place, { page: String(page + 1) })}>古い注文 →</Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
