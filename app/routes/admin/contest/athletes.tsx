import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { FormError } from "~/components/form-messages";
import { positiveId } from "~/lib/rules/params";
import { requireAdminPage } from "~/server/auth/admin-session.server";
import { athleteTabStep, type AthleteActionResult } from "~/server/catalog/athlete-tab.server";
import { contestCategoryNames, findAthleteOfContest, listAthletes } from "~/server/catalog/athletes.server";
import { requireEditableContest } from "~/server/catalog/contest-editing.server";
import { priceColumnNames } from "~/server/catalog/pricing.server";
import { readForm } from "~/server/http/form.server";
import { redirectWithToast } from "~/server/http/toast.server";
import { AddAthletesForm } from "./athletes/AddAthletesForm";
import { AthleteTable } from "./athletes/AthleteTable";
import { AthleteSearch, ListFooter, ViewTabs } from "./athletes/list-navigation";
import { FIRST_PAGE, listQuery, listUrl } from "./athletes/list-address";
import { PurgePanel } from "./athletes/PurgeConfirmation";
import type { TableContext } from "./athletes/table-state";

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
  } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const deletedView = query.view === "deleted";
  const link = (overrides: Record<string, string>) =>
    listUrl(contest.id, { view: query.view, page, q: query.q, categoryParam: query.category }, overrides);

  const context: TableContext = {
    contestId: contest.id,
    bibNumberLabel: contest.bibNumberLabel,
    categories,
    priceNames,
    rowResult: actionData && actionData.kind === "row" ? actionData : null,
  };
  // A failure the table cannot show beside its row: a single row's 削除 / 復元 / 完全に削除, or a
  // save of a row that is no longer on this page.
  const pageError =
    actionData &&
    !actionData.ok &&
    (actionData.kind === "single" || (actionData.kind === "row" && !rows.some((r) => r.id === actionData.id)))
      ? actionData.message
      : undefined;

  return (
    <div className="space-y-5">
      <ViewTabs
        base={`/admin/contest/${contest.id}`}
        deletedView={deletedView}
        activeCount={activeCount}
        deletedCount={deletedCount}
      />
      {deletedView ? null : (
        <AddAthletesForm lastResult={actionData?.kind === "add" ? (actionData.reply ?? null) : null} />
      )}
      {purgeTarget ? <PurgePanel athlete={purgeTarget} cancelTo={link({ purge: "" })} /> : null}
      <AthleteSearch
        deletedView={deletedView}
        bibNumberLabel={contest.bibNumberLabel}
        categories={categories}
        q={query.q}
        category={query.category}
      />
      <FormError errors={pageError ? [pageError] : null} />
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
      <ListFooter
        matching={matching}
        filtered={Boolean(query.q || query.category)}
        deletedView={deletedView}
        page={page}
        pages={pages}
        pageLink={(to) => link({ page: String(to) })}
      />
    </div>
  );
}
