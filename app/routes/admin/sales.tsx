import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData, useLocation } from "@remix-run/react";
import { FieldLabel } from "~/components/forms";
import { SalesChart } from "~/routes/admin/SalesChart";
import { SalesContestTable, SalesCouponTable, SalesDayTable } from "~/routes/admin/sales/SalesTables";
import { formatSignedYen, formatYenShort } from "~/lib/rules/format";
import { requireAdminPage } from "~/server/auth/admin-session.server";
import { parseSalesFilter, salesContestNames, salesReport } from "~/server/sales/sales.server";

export const meta: MetaFunction = () => [{ title: "売上集計 | 管理画面" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminPage(request);
  const { invalid, ...filter } = parseSalesFilter(new URL(request.url).searchParams);
  return { filter, invalid, report: salesReport(filter), contestNames: salesContestNames() };
}

export default function Sales() {
  const { filter, invalid, report, contestNames } = useLoaderData<typeof loader>();
  const { search } = useLocation();
  return (
    <section className="mx-auto max-w-7xl px-4 py-6">
      <h1 className="text-2xl font-bold">売上集計</h1>
      <Form
        method="get"
        className="mt-4 grid gap-3 rounded-xl bg-white p-4 shadow-sm sm:grid-cols-[2fr_1fr_1fr_auto] sm:items-end"
      >
        <div>
          <FieldLabel htmlFor="contest">大会</FieldLabel>
          <select id="contest" name="contest" defaultValue={filter.contest ?? ""} className="field-input">
            <option value="">全ての大会</option>
            {contestNames.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
        <div>
          <FieldLabel htmlFor="from">開始日</FieldLabel>
          <input id="from" name="from" type="date" defaultValue={filter.from ?? ""} className="field-input" />
        </div>
        <div>
          <FieldLabel htmlFor="to">終了日</FieldLabel>
          <input id="to" name="to" type="date" defaultValue={filter.to ?? ""} className="field-input" />
        </div>
        <button type="submit" className="btn-primary">
          絞り込み
        </button>
        {invalid.length > 0 ? (
          <p role="alert" className="field-error sm:col-span-4">
            日付は YYYY-MM-DD の形式で入力してください（正しくない日付は無視しました）
          </p>
        ) : null}
      </Form>

      <div className="mt-5 grid gap-4 sm:grid-cols-3">
        <div className="rounded-xl bg-white p-5 shadow-sm sm:col-span-1">
          <p className="text-sm text-zinc-500">純売上（売上 − 返金）</p>
          <p className="mt-1 text-3xl font-bold" data-testid="sales-total">
            {formatSignedYen(report.net)}
            <span className="ml-1 text-base font-normal text-zinc-500">（税込）</span>
          </p>
          <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 text-sm text-zinc-600">
            <dt>総額（定価）</dt>
            <dd className="text-right" data-testid="sales-list-gross">
              {formatYenShort(report.listGross)}
            </dd>
            <dt>割引</dt>
            <dd className="text-right" data-testid="sales-discounts">
              {formatSignedYen(-report.discounts)}
            </dd>
            <dt>売上</dt>
            <dd className="text-right" data-testid="sales-gross">
              {formatYenShort(report.gross)}
            </dd>
            <dt>返金</dt>
            <dd className="text-right" data-testid="sales-refunds">
              {formatSignedYen(-report.refunds)}
            </dd>
          </dl>
        </div>
        <div className="rounded-xl bg-white p-5 shadow-sm">
          <p className="text-sm text-zinc-500">注文数</p>
          <p className="mt-1 text-3xl font-bold" data-testid="sales-orders">
            {report.orderCount}件
          </p>
        </div>
        <div className="rounded-xl bg-white p-5 shadow-sm">
          <p className="text-sm text-zinc-500">動画本数（明細）</p>
          <p className="mt-1 text-3xl font-bold" data-testid="sales-lines">
            {report.lineCount}本
          </p>
        </div>
      </div>
      {/* On the page's grey, not a card's white: zinc-600 keeps its contrast (zinc-500 is 4.4:1 there). */}
      <p className="mt-2 text-xs text-zinc-600">
        売上（総額（定価）から割引を引いた、お支払いいただいた額）は注文日、返金は返金した日に計上しています（返金手続き中のものを含み、返金できなかったものは含みません）。
      </p>

      <div className="mt-5 rounded-xl bg-white p-5 shadow-sm">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 className="font-semibold">日別売上</h2>
          <a href={`/admin/sales.csv${search}`} className="btn-secondary text-sm" download>
            CSVダウンロード
          </a>
        </div>
        <div className="mt-3">
          <SalesChart days={report.perDay} />
        </div>
        <SalesDayTable days={report.perDay} />
      </div>

      <div className="mt-5 rounded-xl bg-white p-5 shadow-sm">
        <h2 className="font-semibold">大会別</h2>
        <SalesContestTable contests={report.perContest} />
      </div>

      <div className="mt-5 rounded-xl bg-white p-5 shadow-sm">
        <h2 className="font-semibold">クーポン別</h2>
        <SalesCouponTable coupons={report.perCoupon} />
      </div>
    </section>
  );
}
