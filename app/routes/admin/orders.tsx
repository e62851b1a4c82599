import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { formatDateTime, formatYenSign } from "~/lib/rules/format";
import { requireAdminPage } from "~/server/auth/admin-session.server";
import { DELETED_CONTESTS, ORDER_LIST_TABS, type OrderTab } from "~/lib/rules/order-tabs";
import {
  completeOrder,
  DELIVERED_MESSAGES,
  deliverOrder,
  extendDownloadPage,
  resendDeliveryMail,
  resetLineDownload,
  type AttachedVideo,
} from "~/server/delivery/order-delivery.server";
import { readForm } from "~/server/http/form.server";
import {
  listOrderGroups,
  orderContestParam,
  orderListContests,
  orderListCounts,
  orderListQuery,
} from "~/server/orders/order-list.server";
import { parseDeliveryForm } from "~/server/orders/delivery-form.server";
import { orderDeliverySchema } from "~/lib/schemas/delivery-schemas";
import { refuseLine, withdrawRefusal } from "~/server/orders/line-refusals.server";
import {
  lineRefusalSchema,
  lineRefusalWithdrawalSchema,
  REFUSAL_NOTE_MAX,
} from "~/lib/schemas/line-refusal-schemas";
import { redirectWithToast } from "~/server/http/toast.server";
import { positiveId } from "~/lib/rules/params";

export const meta: MetaFunction = () => [{ title: "動画注文一覧 | 管理画面" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminPage(request);
  const { tab, q, page, contest } = orderListQuery(new URL(request.url).searchParams);
  return {
    tab,
    q,
    page,
    contest,
    contestParam: orderContestParam(contest),
    contestOptions: orderListContests(contest),
    counts: orderListCounts(contest),
    ...listOrderGroups({ tab, q, page, contest }),
  };
}

type DeliverError = { orderId: number; message: string; urls: Record<string, string> };
/** A refused お断り form: its line keeps the typed note and shows why. */
type RefusalError = { orderId: number; lineId: number; refusalMessage: string; note: string };

export async function action({ request }: ActionFunctionArgs) {
  await requireAdminPage(request);
  const back = `/admin/orders${new URL(request.url).search}`;
  // 納品 with attached videos is multipart (files streamed to disk); everything else is a small form.
  const multipart = request.headers.get("Content-Type")?.startsWith("multipart/form-data");
  const parsed = multipart
    ? await parseDeliveryForm(request)
    : { ok: true as const, form: await readForm(request), files: new Map<number, AttachedVideo>() };
  if (!parsed.ok)
    return redirectWithToast(
      request,
      back,
      { kind: "error", title: "エラー", description: parsed.message },
      { status: 303 },
    );
  const { form, files } = parsed;
  const orderId = positiveId(form.get("orderId"));
  if (!orderId)
    return redirectWithToast(
      request,
      back,
      { kind: "error", title: "エラー", description: "注文が見つかりません" },
      { status: 303 },
    );
  const intent = String(form.get("intent") ?? "");
  const resetLine = /^reset-line-(\d+)$/.exec(intent);
  if (resetLine) {
    return resetLineDownload(orderId, Number(resetLine[1]))
      ? redirectWithToast(
          request,
          back,
          { kind: "success", title: "ダウンロード回数をリセットしました" },
          { status: 303 },
        )
      : redirectWithToast(
          request,
          back,
          { kind: "error", title: "エラー", description: "明細が見つかりません。" },
          { status: 303 },
        );
  }
  switch (intent) {
    case "refuse-line": {
      const submission = lineRefusalSchema.safeParse(Object.fromEntries(form));
      const lineId = positiveId(form.get("lineId")) ?? 0;
      const note = String(form.get("note") ?? "").slice(0, REFUSAL_NOTE_MAX * 2);
      if (!submission.success)
        return data<RefusalError>(
          {
            orderId,
            lineId,
            note,
            refusalMessage: submission.error.issues[0]?.message ?? "入力内容を確認してください",
          },
          { status: 400 },
        );
      const result = await refuseLine(orderId, submission.data.lineId, submission.data.note);
      if (!result.ok)
        return data<RefusalError>(
          { orderId, lineId, note, refusalMessage: result.message },
          { status: result.status },
        );
      return redirectWithToast(
        request,
        back,
        result.mail === "sent"
          ? { kind: "success", title: "お断りにしました", description: "お客様にメールでお知らせしました。" }
          : {
              kind: "error",
              title: "メール送信に失敗しました",
              description:
                "お断りにしましたが、お客様へのメール送信に失敗しました。メールサーバーが復旧ししだい自動で再送します。",
            },
        { status: 303 },
      );
    }
    case "withdraw-refusal": {
      const submission = lineRefusalWithdrawalSchema.safeParse(Object.fromEntries(form));
      const result = submission.success
        ? await withdrawRefusal(orderId, submission.data.lineId)
        : ({ ok: false, message: "明細が見つかりません。" } as const);
      return redirectWithToast(
        request,
        back,
        result.ok
          ? {
              kind: "success",
              title: "お断りを取り消しました",
              description:
                result.mail === "sent"
                  ? "お客様にメールでお知らせしました。"
                  : "お客様へのメールはメールサーバーが復旧ししだい自動で送信します。",
            }
          : { kind: "error", title: "エラー", description: result.message },
        { status: 303 },
      );
    }
    case "complete":
      return completeOrder(orderId)
        ? redirectWithToast(
            request,
            back,
            { kind: "success", title: "処理完了", description: "注文を対応済みに移動しました。" },
            { status: 303 },
          )
        : redirectWithToast(
            request,
            back,
            { kind: "error", title: "エラー", description: "完了処理に失敗しました。" },
            { status: 303 },
          );
    case "deliver": {
      const downloadUrls: Record<string, string> = {};
      const typed: Record<string, string> = {};
      for (const [key, value] of form) {
        const match = /^url-(\d+)$/.exec(key);
        if (match?.[1] && typeof value === "string") {
          downloadUrls[match[1]] = value;
          typed[key] = value.slice(0, 2000);
        }
      }
      const urls = orderDeliverySchema.safeParse({ downloadUrls });
      const result = urls.success
        ? await deliverOrder(orderId, urls.data.downloadUrls, files)
        : ({ ok: false, status: 400, message: urls.error.issues[0]?.message ?? "" } as const);
      if (!result.ok)
        return data<DeliverError>(
          { orderId, message: result.message, urls: typed },
          { status: result.status },
        );
      if (result.mail === "queued") {
        return redirectWithToast(
          request,
          back,
          { kind: "error", title: "メール送信に失敗しました", description: DELIVERED_MESSAGES.queued },
          { status: 303 },
        );
      }
      return redirectWithToast(
        request,
        back,
        { kind: "success", title: "納品処理完了", description: DELIVERED_MESSAGES[result.mail] },
        { status: 303 },
      );
    }
    case "resend": {
      const resent = await resendDeliveryMail(orderId);
      if (resent === "sent")
        return redirectWithToast(
          request,
          back,
          { kind: "success", title: "メールを再送信しました" },
          { status: 303 },
        );
      const description =
        resent === "queued"
          ? "メールの再送信に失敗しました。メールサーバーが復旧ししだい自動で再送します。"
          : "メールの再送信に失敗しました。";
      return redirectWithToast(
        request,
        back,
        { kind: "error", title: "エラー", description },
        { status: 303 },
      );
    }
    case "extend": {
      const until = extendDownloadPage(orderId, 7);
      return until
        ? redirectWithToast(
            request,
            back,
            {
              kind: "success",
              title: "有効期限を延長しました",
              description: `新しい期限: ${formatDateTime(until)}`,
            },
            { status: 303 },
          )
        : redirectWithToast(
            request,
            back,
            { kind: "error", title: "エラー", description: "ダウンロードページがありません。" },
            { status: 303 },
          );
    }
    default:
      return redirectWithToast(
        request,
        back,
        { kind: "error", title: "エラー", description: "操作が正しくありません。" },
        { status: 303 },
      );
  }
}

const COLUMNS = ["明細番号", "大会", "部門", "番号", "スタイル", "価格", "動画"];

export default function OrderList() {
  const { tab, q, page, contest, contestParam, contestOptions, counts, pages, total, groups } =
    useLoaderData<typeof loader>();
  const error = useActionData<typeof action>();
  const deliverError = error && "urls" in error ? error : null;
  const refusalError = error && "refusalMessage" in error ? error : null;
  const navigation = useNavigation();
  const link = (changes: Record<string, string>) =>
    `?${new URLSearchParams({
      tab,
      ...(contestParam ? { contest: contestParam } : {}),
      ...(q ? { q } : {}),
      page: String(page),
      ...changes,
    }).toString()}`;
  const busyOrder = navigation.formData?.get("orderId");

  return (
    <section className="mx-auto max-w-7xl px-4 py-6 pb-8 xl:pb-40">
      <h1 className="text-2xl font-bold">動画注文一覧</h1>
      <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
        <nav aria-label="対応状況" className="flex gap-1 rounded-lg bg-zinc-200 p-1 text-sm">
          {(Object.keys(ORDER_LIST_TABS) as OrderTab[]).map((key) => (
            <Link
              key={key}
              to={link({ tab: key, page: "1" })}
              aria-current={tab === key ? "page" : undefined}
              className={`rounded-md px-4 py-1.5 ${tab === key ? "bg-white font-semibold shadow-sm" : "text-zinc-600"}`}
            >
              {ORDER_LIST_TABS[key]}
            </Link>
          ))}
        </nav>
        <Form method="get" role="search" className="flex w-full flex-wrap gap-2 sm:w-auto">
          <input type="hidden" name="tab" value={tab} />
          <div className="flex w-full items-center gap-2 sm:w-auto">
            <label htmlFor="order-contest" className="shrink-0 text-sm font-semibold text-zinc-800">
              大会
            </label>
            <select
              id="order-contest"
              name="contest"
              // Remounted when the filter changes, so Back and links never leave a stale choice shown.
              key={contestParam}
              defaultValue={contestParam}
              // With JavaScript the list follows the choice at once; without it, 検索 sends it.
              onChange={(event) => event.currentTarget.form?.requestSubmit()}
              className="field-input min-w-0 flex-1 sm:w-64 sm:flex-none"
            >
              <option value="">すべての大会</option>
              {contestOptions.contests.map((option) => (
                <option key={option.id} value={option.id}>
                  {option.name}
                </option>
              ))}
              {contestOptions.deleted ? <option value={DELETED_CONTESTS}>削除された大会</option> : null}
            </select>
          </div>
          <div className="flex w-full gap-2 sm:w-auto">
            <label htmlFor="order-q" className="sr-only">
              注文番号・メールアドレス・お名前で検索
            </label>
            <input
              id="order-q"
              name="q"
              type="search"
              defaultValue={q}
              placeholder="注文番号・メール・お名前"
              className="field-input min-w-0 flex-1 sm:w-64 sm:flex-none"
            />
            <button type="submit" className="btn-secondary shrink-0">
              検索
            </button>
          </div>
        </Form>
      </div>
      <div
        aria-label="件数"
        role="region"
        className="mt-4 flex flex-wrap items-center justify-between gap-x-6 gap-y-3 rounded-xl bg-white px-4 py-3 shadow-sm"
      >
        <div className="min-w-0">
          <p className="text-sm font-semibold break-words">
            {contest.kind === "contest"
              ? contest.name
              : contest.kind === "deleted"
                ? "削除された大会"
                : "すべての大会"}
          </p>
          <dl className="mt-1 flex flex-wrap gap-x-5 gap-y-1 text-sm">
            {(
              [
                ["未対応", `${counts.pending}件`, "pending"],
                ["対応済み", `${counts.handled}件`, "handled"],
                ["入金待ち", `${counts.awaiting}件`, "awaiting"],
                ["ファイル未設定の明細", `${counts.linesWithoutFile}本`, "lines-without-file"],
              ] as const
            ).map(([label, value, id]) => (
              <div key={id} className="flex items-baseline gap-1.5">
                <dt className="text-zinc-600">{label}</dt>
                <dd className="font-bold" data-testid={`count-${id}`}>
                  {value}
                </dd>
              </div>
            ))}
          </dl>
        </div>
        {contest.kind === "contest" ? (
          <nav aria-label="この大会の作業" className="flex flex-wrap gap-2">
            <Link
              to={`/admin/contest/${contest.id}/production`}
              className="btn-secondary min-h-9 py-1 text-sm"
            >
              制作リスト
            </Link>
            <Link to={`/admin/contest/${contest.id}/delivery`} className="btn-secondary min-h-9 py-1 text-sm">
              納品ファイル
            </Link>
          </nav>
        ) : null}
      </div>
      <p className="mt-3 text-sm text-zinc-600">{total}件</p>

      {groups.length === 0 ? (
        <p className="mt-6 rounded-xl border border-dashed border-zinc-300 bg-white py-12 text-center text-zinc-600">
          {ORDER_LIST_TABS[tab]}の注文はありません
        </p>
      ) : (
        <ul className="mt-4 space-y-4">
          {groups.map((group) => {
            const groupError = deliverError?.orderId === group.id ? deliverError : null;
            const pending = tab === "pending";
            return (
              <li
                key={group.id}
                aria-busy={String(group.id) === busyOrder || undefined}
                className="rounded-xl bg-white shadow-sm"
                data-order={group.orderNumber}
              >
                <div className="flex flex-wrap items-baseline justify-between gap-2 border-b border-zinc-100 px-4 py-3">
                  <h2 className="font-bold">注文番号 {group.orderNumber}</h2>
                  <p className="text-sm text-zinc-600">
                    {formatDateTime(new Date(group.createdAt))}・{group.customerName}（
                    <span className="break-all">{group.customerEmail}</span>）・
                    {formatYenSign(group.totalAmount)}
                  </p>
                </div>
                <Form
                  method="post"
                  action={`/admin/orders${link({})}`}
                  encType={pending ? "multipart/form-data" : undefined}
                  className="px-4 py-3"
                >
                  <input type="hidden" name="orderId" value={group.id} />
                  <div role="table" aria-label={`注文 ${group.orderNumber} の明細`} className="text-sm">
                    <div
                      role="row"
                      className={`hidden gap-3 border-b border-zinc-100 pb-2 text-xs text-zinc-500 lg:grid ${pending ? "lg:grid-cols-6" : "lg:grid-cols-7"}`}
                    >
                      {(pending ? COLUMNS.slice(0, 6) : COLUMNS).map((column) => (
                        <span key={column} role="columnheader">
                          {column}
                        </span>
                      ))}
                    </div>
                    {group.lines.map((line) => {
                      const lineRefusal =
                        refusalError?.orderId === group.id && refusalError.lineId === line.id
                          ? refusalError
                          : null;
                      return (
                        <div
                          key={line.id}
                          role="row"
                          className={`grid grid-cols-2 gap-x-3 gap-y-1 border-b border-zinc-100 py-3 last:border-0 lg:items-center ${pending ? "lg:grid-cols-6" : "lg:grid-cols-7"}`}
                        >
                          <span role="cell" className="font-mono text-xs">
                            {line.lineNumber}
                          </span>
                          <span role="cell">{line.contestName}</span>
                          <span role="cell">{line.category}</span>
                          <span role="cell">
                            {group.bibNumberLabel || "選手名"} {line.athleteNumber}
                            <span className="block text-xs text-zinc-500">{line.athleteName}</span>
                          </span>
                          <span role="cell">{line.style}</span>
                          <span role="cell" className="font-semibold">
                            {formatYenSign(line.price)}
                            {line.refused ? (
                              <span className="ml-2 rounded bg-red-100 px-1.5 py-0.5 text-xs font-bold text-red-700">
                                お断り
                              </span>
                            ) : null}
                          </span>
                          {/* With the order still open the video cell takes the row's whole width, so a pasted URL can be read. */}
                          <span
                            role="cell"
                            className={`col-span-2 min-w-0 ${pending ? "lg:col-span-6" : "lg:col-span-1"}`}
                          >
                            {line.refused ? (
                              <span className="block rounded-lg bg-red-50 px-3 py-2 text-sm text-red-900">
                                <span className="font-semibold">お客様へのお知らせ: </span>
                                <span className="break-words whitespace-pre-line">
                                  {line.refusalNote || "（なし）"}
                                </span>
                                {pending && group.paymentStatus === "paid" ? (
                                  <button
                                    type="submit"
                                    form={`withdraw-${line.id}`}
                                    name="intent"
                                    value="withdraw-refusal"
                                    formNoValidate
                                    className="ml-3 text-xs font-semibold text-red-800 underline"
                                    aria-label={`${line.lineNumber} のお断りを取り消す`}
                                  >
                                    お断りを取り消す
                                  </button>
                                ) : null}
                              </span>
                            ) : pending ? (
                              <span className="flex flex-col gap-2 sm:flex-row sm:items-start">
                                <span className="min-w-0 flex-1">
                                  <label htmlFor={`url-${line.id}`} className="sr-only">
                                    {line.lineNumber} のダウンロードURL
                                  </label>
                                  <input
                                    id={`url-${line.id}`}
                                    name={`url-${line.id}`}
                                    type="url"
                                    placeholder="https://example.com/video.mp4"
                                    defaultValue={
                                      deliverError?.orderId === group.id
                                        ? (deliverError.urls[`url-${line.id}`] ?? "")
                                        : (line.videoDownloadUrl ?? "")
                                    }
                                    className="field-input min-h-9 w-full py-1 text-sm"
                                  />
                                </span>
                                <label className="block text-xs text-zinc-600 sm:w-56 sm:shrink-0">
                                  または動画ファイル
                                  <input
                                    type="file"
                                    name={`file-${line.id}`}
                                    accept="video/*"
                                    className="mt-0.5 block w-full text-xs"
                                    aria-label={`${line.lineNumber} の動画ファイル`}
                                  />
                                </label>
                              </span>
                            ) : line.videoDownloadUrl || line.deliveryFileId ? (
                              <span className="flex flex-wrap items-center gap-2">
                                {line.videoDownloadUrl ? (
                                  <a
                                    href={line.videoDownloadUrl}
                                    target="_blank"
                                    rel="noopener noreferrer"
                                    className="text-brand-700 underline"
                                  >
                                    動画URL
                                  </a>
                                ) : (
                                  <span>ファイル納品</span>
                                )}
                                <span className="text-xs text-zinc-500">
                                  {line.downloadStartedAt
                                    ? `DL ${formatDateTime(new Date(line.downloadStartedAt))}`
                                    : "未DL"}
                                </span>
                                {line.downloadStartedAt ? (
                                  <button
                                    type="submit"
                                    name="intent"
                                    value={`reset-line-${line.id}`}
                                    className="text-xs text-zinc-600 underline"
                                    aria-label={`${line.lineNumber} のダウンロード回数をリセット`}
                                  >
                                    リセット
                                  </button>
                                ) : null}
                              </span>
                            ) : (
                              <span className="text-zinc-500">
                                {group.paymentStatus === "paid" ? "未設定" : "お支払い後に制作"}
                              </span>
                            )}
                            {pending && group.paymentStatus === "paid" && !line.refused ? (
                              <RefusalControl
                                lineNumber={line.lineNumber}
                                lineId={line.id}
                                error={lineRefusal}
                              />
                            ) : null}
                          </span>
                        </div>
                      );
                    })}
                  </div>
                  {groupError ? (
                    <p role="alert" className="field-error">
                      {groupError.message}
                    </p>
                  ) : null}
                  <div className="mt-3 flex flex-wrap items-center gap-2">
                    {group.paymentStatus !== "paid" ? (
                      <PaymentBadge status={group.paymentStatus} dueAt={group.paymentDueAt} />
                    ) : pending ? (
                      <>
                        <button
                          type="submit"
                          name="intent"
                          value="complete"
                          formNoValidate
                          className="btn-secondary"
                        >
                          完了
                        </button>
                        <button
                          type="submit"
                          name="intent"
                          value="deliver"
                          formNoValidate
                          className="btn-primary"
                        >
                          納品
                        </button>
                      </>
                    ) : (
                      <>
                        <span className="rounded-full bg-emerald-100 px-3 py-1 text-xs font-bold text-emerald-800">
                          {group.status === "納品済み" ? "納品完了" : "対応済み"}
                        </span>
                        {group.downloadPage ? (
                          <>
                            <a
                              href={`/download/${group.downloadPage.id}`}
                              target="_blank"
                              rel="noopener noreferrer"
                              className="text-sm text-brand-700 underline"
                            >
                              ダウンロードページ
                            </a>
                            <span className="text-xs text-zinc-500">
                              期限 {formatDateTime(new Date(group.downloadPage.expiresAt))}
                            </span>
                            <button
                              type="submit"
                              name="intent"
                              value="extend"
                              className="btn-secondary min-h-9 py-1 text-sm"
                            >
                              期限を7日延長
                            </button>
                            <button
                              type="submit"
                              name="intent"
                              value="resend"
                              className="btn-secondary min-h-9 py-1 text-sm"
                            >
                              納品メールを再送信
                            </button>
                          </>
                        ) : null}
                      </>
                    )}
                  </div>
                </Form>
                {pending && group.paymentStatus === "paid"
                  ? group.lines.map((line) => (
                      // お断り and its undo post on their own: a form may not sit inside the order's form.
                      <Form
                        key={line.id}
                        method="post"
                        action={`/admin/orders${link({})}`}
                        id={line.refused ? `withdraw-${line.id}` : `refuse-${line.id}`}
                        hidden
                      >
                        <input type="hidden" name="orderId" value={group.id} />
                        <input type="hidden" name="lineId" value={line.id} />
                      </Form>
                    ))
                  : null}
              </li>
            );
          })}
        </ul>
      )}
      {pages > 1 ? (
        <nav aria-label="ページ" className="mt-4 flex items-center justify-between text-sm">
          {page > 1 ? <Link to={link({ page: String(page - 1) })}>← 新しい注文</Link> : <span />}
          <span>
            {page} / {pages}
          </span>
          {page < pages ? <Link to={link({ page: String(page + 1) })}>古い注文 →</Link> : <span />}
        </nav>
      ) : null}
    </section>
  );
}

/** A konbini order whose money is not in: waiting until its deadline, or expired unpaid. */
function PaymentBadge({ status, dueAt }: { status: "awaiting" | "expired"; dueAt: Date | null }) {
  return status === "awaiting" ? (
    <span className="rounded-full bg-amber-100 px-3 py-1 text-xs font-bold text-amber-900">
      入金待ち（コンビニ払い・期限 {dueAt ? formatDateTime(dueAt) : "-"}）
    </span>
  ) : (
    <span className="rounded-full bg-zinc-200 px-3 py-1 text-xs font-bold text-zinc-700">
      期限切れ（未入金のため取り消し）
    </span>
  );
}

/**
 * お断り for one line: a note for the customer (mailed, and shown on their status and download
 * pages) and a button. Its inputs belong to the line's own form by the form attribute. Open
 * again with the typed note when the server refused it.
 */
function RefusalControl({
  lineId,
  lineNumber,
  error,
}: {
  lineId: number;
  lineNumber: string;
  error: RefusalError | null;
}) {
  const formId = `refuse-${lineId}`;
  return (
    <details open={error ? true : undefined} className="mt-2 text-xs">
      <summary className="cursor-pointer text-zinc-600 underline">お断りにする（制作できない場合）</summary>
      <div className="mt-2 space-y-2 rounded-lg border border-red-200 bg-red-50/50 p-3">
        <label htmlFor={`${formId}-note`} className="block font-semibold text-zinc-800">
          {lineNumber} のお客様へのお知らせ
        </label>
        <textarea
          id={`${formId}-note`}
          name="note"
          form={formId}
          required
          maxLength={REFUSAL_NOTE_MAX}
          rows={3}
          defaultValue={error?.note ?? ""}
          placeholder="例: 当日の撮影に不具合があり、この演技の動画をご用意できませんでした。"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${formId}-error` : undefined}
          className="field-input w-full text-sm"
        />
        {error ? (
          <p id={`${formId}-error`} role="alert" className="field-error">
            {error.refusalMessage}
          </p>
        ) : null}
        <p className="text-zinc-600">
          お客様にメールでお知らせします。返金はショップから別途ご連絡する旨も記載されます。
        </p>
        <button
          type="submit"
          form={formId}
          name="intent"
          value="refuse-line"
          className="rounded-lg border border-red-300 bg-white px-3 py-1.5 font-semibold text-red-700 hover:bg-red-50"
        >
          お断りにしてお客様に知らせる
        </button>
      </div>
    </details>
  );
}
