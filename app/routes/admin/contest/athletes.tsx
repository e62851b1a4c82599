import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AthleteTable, type TableContext } from "~/routes/admin/contest/AthleteTable";
import { listQuery, listUrl, FIRST_PAGE } from "~/routes/admin/contest/athletes/list-address";
import { addAthletesSchema, MAX_ADD_COUNT, UNCATEGORISED } from "~/lib/schemas/athlete-schemas";
import { requireAdminPage } from "~/server/auth/admin-session.server";
import { athleteTabStep, type AthleteActionResult } from "~/server/catalog/athlete-tab.server";
import { contestCategoryNames, findAthleteOfContest, listAthletes } from "~/server/catalog/athletes.server";
import { priceColumnNames } from "~/server/catalog/pricing.server";
import { requireEditableContest } from "~/server/catalog/contest-editing.server";
import { readForm } from "~/server/http/form.server";
import { redirectWithToast } from "~/server/http/toast.server";
import { positiveId } from "~/lib/rules/params";

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdminPage(request);
  const contest = requireEditableContest(params);
  const search = new URL(request.url).searchParams;
  const query = listQuery(search);
  const list = listAthletes(contest.id, query);
  const purgeId = positiveId(search.get("purge"));
  const purgeTarget = query.view === "deleted" && purgeId ? findAthleteOfContest(contest.id, purgeId) : null;
  return {
    contest: { id: contest.id, bibNumberLabel: contest.bibNumberLabel },
    categories: contestCategoryNames(contest.id),
    priceNames: priceColumnNames(contest.id),
    query: { view: query.view, q: query.q, category: query.categoryParam, page: list.page },
    selectAll: search.get("select") === "all",
    purgeTarget: purgeTarget?.isDeleted
      ? { id: purgeTarget.id, athleteNumber: purgeTarget.athleteNumber, name: purgeTarget.name }
      : null,
    ...list,
  };
}

/**
 * Every change of the tab posts here. A plain form post gets 303 back to the list with a
 * toast, or the form again with its messages and a 4xx. The page's scripts post with
 * reply=fetcher and get the outcome as data, to confirm or roll back what they showed.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  await requireAdminPage(request);
  const contest = requireEditableContest(params);
  const form = await readForm(request);
  const outcome = athleteTabStep(contest.id, form);
  if (!outcome.done) return data<AthleteActionResult>(outcome.result, { status: outcome.status });
  if (form.get("reply") === "fetcher" && !outcome.toFirstPage)
    return data<AthleteActionResult>(outcome.result);
  const back = outcome.toFirstPage
    ? listUrl(contest.id, FIRST_PAGE)
    : listUrl(contest.id, listQuery(new URL(request.url).searchParams));
  return redirectWithToast(request, back, { kind: "success", ...outcome.toast }, { status: 303 });
}

export default function AthleteManagement() {
  const loaderData = useLoaderData<typeof loader>();
  const {
    contest,
    categories,
    priceNames,
    query,
    rows,
    page,
    pages,
    matching,
    activeCount,
    deletedCount,
    selectAll,
    purgeTarget,
  } = loaderData;
  const actionData = useActionData<typeof action>();
  const deletedView = query.view === "deleted";
  const base = `/admin/contest/${contest.id}`;
  const link = (overrides: Record<string, string>) =>
    listUrl(contest.id, { view: query.view, page, q: query.q, categoryParam: query.category }, overrides);

  const context: TableContext = {
    contestId: contest.id,
    bibNumberLabel: contest.bibNumberLabel,
    categories,
    priceNames,
    rowResult: actionData && actionData.kind === "row" ? actionData : null,
  };

  return (
    <div className="space-y-5">
      <nav aria-label="選手の表示" className="flex flex-wrap gap-2 text-sm">
        <Link
          to={base}
          aria-current={deletedView ? undefined : "page"}
          className={`rounded-full px-4 py-2 ${deletedView ? "bg-white text-zinc-700 ring-1 ring-zinc-300 hover:bg-zinc-100" : "bg-zinc-900 font-semibold text-white"}`}
        >
          選手一覧（{activeCount}）
        </Link>
        <Link
          to={`${base}?view=deleted`}
          aria-current={deletedView ? "page" : undefined}
          className={`rounded-full px-4 py-2 ${deletedView ? "bg-zinc-900 font-semibold text-white" : "bg-white text-zinc-700 ring-1 ring-zinc-300 hover:bg-zinc-100"}`}
        >
          削除済み（{deletedCount}）
        </Link>
      </nav>

      {deletedView ? null : (
        <AddAthletesForm lastResult={actionData?.kind === "add" ? (actionData.reply ?? null) : null} />
      )}

      {purgeTarget ? (
        <section
          aria-labelledby="purge-confirm-title"
          className="rounded-xl border border-red-300 bg-red-50 p-4"
        >
          <h2 id="purge-confirm-title" className="font-bold text-red-900">
            本当に完全に削除しますか？
          </h2>
          <p className="mt-1 text-sm text-red-900">
            {purgeTarget.athleteNumber} {purgeTarget.name} を完全に削除します。この操作は取り消せません。
          </p>
          <Form method="post" className="mt-3 flex flex-wrap gap-3">
            <input type="hidden" name="id" value={purgeTarget.id} />
            <input type="hidden" name="confirm" value="yes" />
            <Link to={link({ purge: "" })} className="btn-secondary">
              キャンセル
            </Link>
            <button
              type="submit"
              name="intent"
              value="purge"
              className="btn bg-red-600 text-white hover:bg-red-700"
            >
              完全に削除する
            </button>
          </Form>
        </section>
      ) : null}

      <Form
        method="get"
        role="search"
        className="flex flex-wrap items-end gap-3 rounded-xl bg-white p-4 shadow-sm"
      >
        {deletedView ? <input type="hidden" name="view" value="deleted" /> : null}
        <div className="min-w-0 flex-1 basis-48">
          <label htmlFor="athlete-search" className="field-label">
            {contest.bibNumberLabel}・選手名で検索
          </label>
          <input id="athlete-search" name="q" type="search" defaultValue={query.q} className="field-input" />
        </div>
        <div className="min-w-0 basis-40">
          <label htmlFor="athlete-category-filter" className="field-label">
            部門で絞り込み
          </label>
          <select
            id="athlete-category-filter"
            name="category"
            defaultValue={query.category}
            className="field-input"
          >
            <option value="">すべての部門</option>
            {[...categories, UNCATEGORISED].map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn-secondary">
          絞り込み
        </button>
      </Form>

      {actionData &&
      !actionData.ok &&
      (actionData.kind === "single" ||
        (actionData.kind === "row" && !rows.some((r) => r.id === actionData.id))) ? (
        <p
          role="alert"
          className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 font-medium text-red-800"
        >
          {actionData.message}
        </p>
      ) : null}
      <AthleteTable
        key={`${query.view}-${page}-${query.q}-${query.category}`}
        context={context}
        rows={rows}
        deletedView={deletedView}
        selectAll={selectAll}
        bulkResult={actionData && actionData.kind === "bulk" ? actionData : null}
        selectAllLink={link({ select: "all" })}
        clearLink={link({ select: "" })}
        purgeLinkFor={(id) => link({ purge: String(id) })}
      />

      {matching === 0 ? (
        <p className="rounded-xl border border-dashed border-zinc-300 bg-white py-12 text-center text-zinc-600">
          {query.q || query.category
            ? "条件に合う選手はいません"
            : deletedView
              ? "削除済みの選手はいません"
              : "選手が登録されていません。上のフォームから追加してください。"}
        </p>
      ) : null}

      {pages > 1 ? (
        <nav aria-label="ページ" className="flex items-center justify-between gap-3 text-sm">
          {page > 1 ? (
            <Link to={link({ page: String(page - 1) })} className="btn-secondary">
              ← 前へ
            </Link>
          ) : (
            <span />
          )}
          <span>
            {page} / {pages} ページ（{matching}人）
          </span>
          {page < pages ? (
            <Link to={link({ page: String(page + 1) })} className="btn-secondary">
              次へ →
            </Link>
          ) : (
            <span />
          )}
        </nav>
      ) : matching > 0 ? (
        <p className="text-sm text-zinc-600">{matching}人</p>
      ) : null}
    </div>
  );
}

function AddAthletesForm({ lastResult }: { lastResult: SubmissionResult<string[]> | null }) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "add-athletes",
    lastResult,
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: addAthletesSchema }),
  });
  const pending = navigation.state !== "idle" && navigation.formData?.get("intent") === "add";
  return (
    <Form method="post" {...getFormProps(form)} className="rounded-xl bg-white p-4 shadow-sm">
      <label htmlFor={fields.count.id} className="field-label">
        追加する人数
      </label>
      <div className="flex flex-wrap gap-3">
        <input
          {...getInputProps(fields.count, { type: "number" })}
          min={1}
          max={MAX_ADD_COUNT}
          step={1}
          inputMode="numeric"
          placeholder="例: 30"
          className="field-input w-40"
        />
        <button type="submit" name="intent" value="add" className="btn-primary" disabled={pending}>
          {pending ? "追加中..." : "選手を追加"}
        </button>
      </div>
      {fields.count.errors ? (
        <p id={fields.count.errorId} role="alert" className="field-error">
          {fields.count.errors[0]}
        </p>
      ) : null}
      <p className="mt-2 text-xs text-zinc-500">
        一度に{MAX_ADD_COUNT}人まで。番号は現在の最大番号の次から振られ、名前は「選手{"{番号}"}
        」、価格は各形式5,000円、ステータスは確認中で追加されます。
      </p>
    </Form>
  );
}
