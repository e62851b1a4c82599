import type { SubmissionResult } from "@conform-to/react";
import { parseForm } from "~/lib/schemas/parse-form";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useActionData } from "@remix-run/react";
import { NewContestFields } from "~/routes/admin/NewContestForm";
import { newContestSchema } from "~/lib/schemas/contest-schemas";
import { requireAdminPage } from "~/server/auth/admin-session.server";
import { addContest } from "~/server/catalog/contests.server";
import { redirectWithToast } from "~/server/http/toast.server";
import { readForm } from "~/server/http/form.server";
import { useIsPending } from "~/lib/hooks/use-is-pending";

export const meta: MetaFunction = () => [{ title: "新規大会追加 | 管理画面" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminPage(request);
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  await requireAdminPage(request);
  const submission = parseForm(await readForm(request), { schema: newContestSchema });
  if (submission.status !== "success")
    return data<SubmissionResult<string[]>>(submission.reply(), { status: 400 });
  const result = addContest(submission.value.name);
  if (!result.ok)
    return data<SubmissionResult<string[]>>(
      submission.reply({ fieldErrors: { [result.field]: [result.message] } }),
      { status: 409 },
    );
  return redirectWithToast(
    request,
    "/admin",
    { kind: "success", title: "追加完了", description: "新しい大会が追加されました。" },
    { status: 303 },
  );
}

export default function NewContest() {
  const lastResult = useActionData<typeof action>();
  const pending = useIsPending();
  return (
    <section className="mx-auto max-w-md px-4 py-10">
      <p className="text-sm">
        <Link to="/admin" className="text-brand-700 underline">
          ← 大会管理へ戻る
        </Link>
      </p>
      <div className="mt-3 rounded-2xl bg-white p-6 shadow-sm">
        <h1 className="mb-4 text-xl font-bold">新規大会追加</h1>
        <NewContestFields lastResult={lastResult ?? null} pending={pending} />
      </div>
    </section>
  );
}
