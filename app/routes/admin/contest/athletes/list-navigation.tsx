import { getFormProps } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { Field, SelectField } from "~/components/forms";
import { useShopForm } from "~/lib/hooks/use-shop-form";
import { UNCATEGORISED } from "~/lib/schemas/athlete-schemas";

const TAB = "rounded-full px-4 py-2";
const CURRENT_TAB = `${TAB} bg-zinc-900 font-semibold text-white`;
const OTHER_TAB = `${TAB} bg-white text-zinc-700 ring-1 ring-zinc-300 hover:bg-zinc-100`;

/** 選手一覧 / 削除済み, with their counts. */
export function ViewTabs({
  base,
  deletedView,
  activeCount,
  deletedCount,
}: {
  base: string;
  deletedView: boolean;
  activeCount: number;
  deletedCount: number;
}) {
  return (
    <nav aria-label="選手の表示" className="flex flex-wrap gap-2 text-sm">
      <Link
        to={base}
        aria-current={deletedView ? undefined : "page"}
        className={deletedView ? OTHER_TAB : CURRENT_TAB}
      >
        選手一覧（{activeCount}）
      </Link>
      <Link
        to={`${base}?view=deleted`}
        aria-current={deletedView ? "page" : undefined}
        className={deletedView ? CURRENT_TAB : OTHER_TAB}
      >
        削除済み（{deletedCount}）
      </Link>
    </nav>
  );
}

/**
 * Search by number or name and filter by category: a GET form, so the list's address says what
 * it shows (a reload or a shared link keeps it). Nothing to validate, so no onValidate: conform
 * only names and fills the fields.
 */
export function AthleteSearch({
  deletedView,
  bibNumberLabel,
  categories,
  q,
  category,
}: {
  deletedView: boolean;
  bibNumberLabel: string;
  categories: string[];
  q: string;
  category: string;
}) {
  const [form, fields] = useShopForm({ id: "athlete-search", defaultValue: { q, category } });
  return (
    <Form
      method="get"
      role="search"
      {...getFormProps(form)}
      className="flex flex-wrap items-end gap-3 rounded-xl bg-white p-4 shadow-sm"
    >
      {deletedView ? <input type="hidden" name="view" value="deleted" /> : null}
      <div className="min-w-0 flex-1 basis-48">
        <Field label={`${bibNumberLabel}・選手名で検索`} meta={fields.q} type="search" />
      </div>
      <div className="min-w-0 basis-40">
        <SelectField
          label="部門で絞り込み"
          meta={fields.category}
          options={[
            { value: "", label: "すべての部門" },
            ...[...categories, UNCATEGORISED].map((name) => ({ value: name, label: name })),
          ]}
        />
      </div>
      <button type="submit" className="btn-secondary">
        絞り込み
      </button>
    </Form>
  );
}

/** Under the table: what an empty list means, or the page links and the count. */
export function ListFooter({
  matching,
  filtered,
  deletedView,
  page,
  pages,
  pageLink,
}: {
  matching: number;
  filtered: boolean;
  deletedView: boolean;
  page: number;
  pages: number;
  pageLink: (page: number) => string;
}) {
  return (
    <>
      {matching === 0 ? (
        <p className="rounded-xl border border-dashed border-zinc-300 bg-white py-12 text-center text-zinc-600">
          {filtered
            ? "条件に合う選手はいません"
            : deletedView
              ? "削除済みの選手はいません"
              : "選手が登録されていません。上のフォームから追加してください。"}
        </p>
      ) : null}
      {pages > 1 ? (
        <nav aria-label="ページ" className="flex items-center justify-between gap-3 text-sm">
          {page > 1 ? (
            <Link to={pageLink(page - 1)} className="btn-secondary">
              ← 前へ
            </Link>
          ) : (
            <span />
          )}
          <span>
            {page} / {pages} ページ（{matching}人）
          </span>
          {page < pages ? (
            <Link to={pageLink(page + 1)} className="btn-secondary">
              次へ →
            </Link>
          ) : (
            <span />
          )}
        </nav>
      ) : matching > 0 ? (
        <p className="text-sm text-zinc-600">{matching}人</p>
      ) : null}
    </>
  );
}
