import { Form } from "@remix-run/react";

/**
 * テストモード only (PAYMENT_PROVIDER=test): plays what a store and the deadline do to a waiting
 * konbini order, so the whole flow can be tried and tested without a network. Shown to a logged-in
 * admin only (the status page's loader), as the action accepts only the admin's press.
 */
export function KonbiniTestActions({ statusToken }: { statusToken: string }) {
  return (
    <div className="mt-4 rounded-xl border border-dashed border-amber-400 p-4">
      <p className="text-xs font-bold text-amber-900">テストモード</p>
      <div className="mt-2 flex flex-wrap gap-2">
        <Form method="post" action={`/orders/${statusToken}/konbini-test`}>
          <input type="hidden" name="event" value="paid" />
          <button type="submit" className="btn-primary min-h-9 py-1 text-sm">
            店頭で支払う（テスト）
          </button>
        </Form>
        <Form method="post" action={`/orders/${statusToken}/konbini-test`}>
          <input type="hidden" name="event" value="expired" />
          <button type="submit" className="btn-secondary min-h-9 py-1 text-sm">
            期限切れにする（テスト）
          </button>
        </Form>
      </div>
    </div>
  );
}
