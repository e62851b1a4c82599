import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { ProcessingHint } from "~/components/VideoJobState";
import { useHydrated } from "~/lib/hooks/use-hydrated";
import { useRefreshWhileProcessing } from "~/lib/hooks/use-refresh-while-processing";
import { positiveId } from "~/lib/rules/params";
import { requireAdminPage } from "~/server/auth/admin-session.server";
import { requireEditableContest } from "~/server/catalog/contest-editing.server";
import { env } from "~/server/core/env.server";
import { deliveryScreen } from "~/server/delivery/delivery-screen.server";
import { runDeliveryTabPost } from "~/server/delivery/delivery-tab.server";
import { notFound } from "~/server/http/not-found.server";
import { redirectWithToast } from "~/server/http/toast.server";
import { DeliveredFiles } from "./delivery/DeliveredFiles";
import { DeliverySummary } from "./delivery/DeliverySummary";
import { DeliveryUploadPanel } from "./delivery/DeliveryUploadPanel";
import { FileSection } from "./delivery/FileSection";
import { MissingLines } from "./delivery/MissingLines";
import { ResendMails } from "./delivery/ResendMails";

export const meta: MetaFunction = () => [{ title: "納品ファイル | 管理画面" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdminPage(request);
  const contest = requireEditableContest(params);
  const screen = deliveryScreen(contest.id);
  if (!screen) notFound();
  return { contestId: contest.id, maxUploadBytes: env().MAX_UPLOAD_BYTES, ...screen };
}

/** Uploads, hand matches, removal, 再実行, 一括納品 and the re-sent mail (steps in delivery-tab.server.ts); success goes back to the tab (PRG). */
export async function action({ request, params }: ActionFunctionArgs) {
  await requireAdminPage(request);
  const contest = requireEditableContest(params);
  const outcome = await runDeliveryTabPost(request, contest);
  if ("toast" in outcome)
    return redirectWithToast(request, `/admin/contest/${contest.id}/delivery`, outcome.toast, {
      status: 303,
    });
  return data(outcome.error, { status: outcome.status });
}

export default function DeliveryFiles() {
  const screen = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  // One hand-match form on the page at a time: the row the admin opened (?file=) or the one a mistake came back to.
  const editing = actionData?.reply ? actionData.fileId : positiveId(searchParams.get("file"));
  const waitingCount = screen.matched.length + screen.ambiguous.length + screen.unmatched.length;
  const sectionProps = { screen, actionData, editing };
  const hydrated = useHydrated();
  useRefreshWhileProcessing(screen.processing);

  return (
    <div className="space-y-8">
      <DeliverySummary
        contestId={screen.contestId}
        numberLabel={screen.numberLabel}
        counts={{
          ready: screen.ready.length,
          incomplete: screen.incomplete.length,
          ambiguous: screen.ambiguous.length,
          unmatched: screen.unmatched.length,
        }}
        ready={screen.ready}
        nothingToDeliver={screen.nothingToDeliver}
        replacing={screen.replacing}
        failedFiles={screen.failedFiles}
      />
      <DeliveryUploadPanel
        contestId={screen.contestId}
        maxUploadBytes={screen.maxUploadBytes}
        serverError={actionData && actionData.fileId === null ? (actionData.error ?? null) : null}
      />
      <ResendMails orders={screen.changedSinceMail} />
      <ProcessingHint processing={screen.processing} hydrated={hydrated} />
      <FileSection
        id="matched"
        title="照合済みのファイル"
        empty={
          waitingCount === 0
            ? "未納品のファイルはありません。上からアップロードしてください。"
            : "照合済みのファイルはありません。"
        }
        files={screen.matched}
        {...sectionProps}
      />
      {screen.ambiguous.length > 0 ? (
        <FileSection id="ambiguous" title="要確認のファイル" files={screen.ambiguous} {...sectionProps} />
      ) : null}
      {screen.unmatched.length > 0 ? (
        <FileSection id="unmatched" title="照合できないファイル" files={screen.unmatched} {...sectionProps} />
      ) : null}
      <MissingLines
        numberLabel={screen.numberLabel}
        missing={screen.missing}
        incomplete={screen.incomplete}
      />
      <DeliveredFiles files={screen.delivered} numberLabel={screen.numberLabel} actionData={actionData} />
    </div>
  );
}
