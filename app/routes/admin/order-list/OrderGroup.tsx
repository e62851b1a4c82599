import { Form, Link } from "@remix-run/react";
import { FormError } from "~/components/form-messages";
import { formatDateTime, formatYenShort } from "~/lib/rules/format";
import type { DeliverError, RefusalError } from "~/server/orders/admin/order-list-actions.server";
import type { OrderGroup as Group } from "~/server/orders/admin/order-list.server";
import { RefundBadge } from "../order/OrderLines";
import { OrderGroupActions } from "./OrderGroupActions";
import { orderAnchor } from "./order-list-link";
import { LINE_COLUMNS, lineGridClass, OrderLineRow } from "./OrderLineRow";
import { LineRefusalForms } from "./RefusalControl";

/**
 * One order of the list: its heading, its lines in one form (納品 posts every line's URL and
 * video together; it is multipart while the order is open, for the videos), and its buttons.
 */
export function OrderGroup({
  group,
  pending,
  action,
  busy,
  deliverError,
  refusalError,
  extensionDays,
  refundKey,
  tabFiles,
}: {
  group: Group;
  /** The list shows the 未対応 tab. */
  pending: boolean;
  /** Where the order's forms post: the list's own address, so the answer comes back to this page. */
  action: string;
  /** One of this order's forms is on its way. */
  busy: boolean;
  /** The list's refused 納品, if any (shown by the order it was for). */
  deliverError: DeliverError | null;
  /** The list's refused お断り, if any (shown by its line). */
  refusalError: RefusalError | null;
  extensionDays: number;
  /** The list's refund key for お断り's refund (see RefusalControl). */
  refundKey: string;
  /** The file 納品ファイル has for a line (line id → its name): 納品 uses it unless another is given. */
  tabFiles: Record<number, string>;
}) {
  const groupError = deliverError?.orderId === group.id ? deliverError : null;
  const paidAndOpen = pending && group.paymentStatus === "paid";
  return (
    <li
      id={orderAnchor(group.id)}
      aria-busy={busy || undefined}
      className="scroll-mt-4 rounded-xl bg-white shadow-sm"
      data-order={group.orderNumber}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2 border-b border-zinc-100 px-4 py-3">
        <h2 className="flex flex-wrap items-center gap-2 font-bold">
          <Link to={`/admin/orders/${group.orderNumber}`} className="text-brand-700 underline">
            注文番号 {group.orderNumber}
          </Link>
          {group.refundMark ? <RefundBadge label={group.refundMark} /> : null}
        </h2>
        <p className="text-sm text-zinc-600">
          {formatDateTime(new Date(group.createdAt))}・{group.customerName}（
          <span className="break-all">{group.customerEmail}</span>）・
          {formatYenShort(group.totalAmount)}
        </p>
      </div>
      <Form
        method="post"
        action={action}
        encType={pending ? "multipart/form-data" : undefined}
        className="px-4 py-3"
      >
        <input type="hidden" name="orderId" value={group.id} />
        <div role="table" aria-label={`注文 ${group.orderNumber} の明細`} className="text-sm">
          <div
            role="row"
            className={`hidden gap-3 border-b border-zinc-100 pb-2 text-xs text-zinc-500 lg:grid ${lineGridClass(pending)}`}
          >
            {(pending ? LINE_COLUMNS.slice(0, 6) : LINE_COLUMNS).map((column) => (
              <span key={column} role="columnheader">
                {column}
              </span>
            ))}
          </div>
          {group.lines.map((line) => (
            <OrderLineRow
              key={line.id}
              group={group}
              line={line}
              pending={pending}
              deliverError={groupError}
              refusalError={
                refusalError?.orderId === group.id && refusalError.lineId === line.id ? refusalError : null
              }
              refundKey={refundKey}
              tabFile={tabFiles[line.id] ?? null}
            />
          ))}
        </div>
        <FormError errors={groupError ? [groupError.message] : null} />
        <OrderGroupActions group={group} pending={pending} extensionDays={extensionDays} />
      </Form>
      {paidAndOpen ? <LineRefusalForms group={group} action={action} /> : null}
    </li>
  );
}
