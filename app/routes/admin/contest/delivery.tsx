import {
  getFormProps,
  getInputProps,
  getSelectProps,
  useForm,
  type SubmissionResult,
} from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { FieldError } from "~/components/forms";
import { deliveryActionSchema, fileMatchSchema } from "~/lib/schemas/delivery-schemas";
import { formatBytes } from "~/lib/schemas/media-schemas";
import { positiveId } from "~/lib/rules/params";
import { useHydrated } from "~/lib/hooks/use-hydrated";
import { VIDEO_ACCEPT } from "~/lib/rules/video-files";
import { requireAdminPage } from "~/server/auth/admin-session.server";
import { requireEditableContest } from "~/server/catalog/contest-editing.server";
import { env } from "~/server/core/env.server";
import { deliverContest, resendAfterReplacement } from "~/server/delivery/batch-delivery.server";
import {
  matchFileByHand,
  receiveDeliveryForm,
  removeWaitingFile,
  replaceFile,
} from "~/server/delivery/delivery-files.server";
import { deliveryScreen, type DeliveryScreen, type ScreenFile } from "~/server/delivery/delivery-screen.server";
import { readForm } from "~/server/http/form.server";
import { redirectWithToast } from "~/server/http/toast.server";
import { DeliveryUploadPanel } from "./DeliveryUploadPanel";

export const meta: MetaFunction = () => [{ title: "納品ファイル | 管理画面" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdminPage(request);
  const contest = requireEditableContest(params);
  const screen = deliveryScreen(contest.id);
  if (!screen) throw new Response("大会が見つかりません", { status: 404 });
  return { contestId: contest.id, maxUploadBytes: env().MAX_UPLOAD_BYTES, ...screen };
}

type ActionData = { fileId: number | null; reply?: SubmissionResult<string[]>; error?: string };

/** Uploads (plain multipart form), hand matches, removal, 一括納品 and the re-sent mail; success goes back to the tab (PRG). */
export async function action({ request, params }: ActionFunctionArgs) {
  await requireAdminPage(request);
  const contest = requireEditableContest(params);
  const page = `/admin/contest/${contest.id}/delivery`;
  const toast = (kind: "success" | "error", title: string, description?: string) =>
    redirectWithToast(request, page, { kind, title, description }, { status: 303 });

  if ((request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data")) {
    const query = new URL(request.url).searchParams;
    if (query.get("intent") === "replace") {
      const fileId = positiveId(query.get("fileId"));
      if (!fileId)
        return data<ActionData>({ fileId: null, error: "ファイルが見つかりません" }, { status: 404 });
      const replaced = await replaceFile(contest.id, fileId, request);
      if (!replaced.ok)
        return data<ActionData>({ fileId, error: replaced.message }, { status: replaced.status });
      return toast(
        "success",
        "ファイルを差し替えました",
        replaced.delivered
          ? `「${replaced.file.originalName}」は一括納品で納品済みの注文に反映されます。`
          : `「${replaced.file.originalName}」に差し替えました。`,
      );
    }
    const received = await receiveDeliveryForm(contest.id, request);
    if (!received.ok)
      return data<ActionData>({ fileId: null, error: received.message }, { status: received.status });
    if (received.refused.length > 0)
      return toast(
        "error",
        `${received.refused.length} 件のファイルは動画ではないため受け付けませんでした`,
        `${received.refused.join("、")}${received.stored.length ? `（他の ${received.stored.length} 件はアップロードしました）` : ""}`,
      );
    return toast(
      "success",
      "アップロード完了",
      `${received.stored.length} 件のファイルをアップロードしました。`,
    );
  }

  const form = await readForm(request);
  if (form.get("intent") === "match") {
    const submission = parseWithZod(form, { schema: fileMatchSchema });
    const fileId = positiveId(form.get("fileId"));
    if (submission.status !== "success")
      return data<ActionData>({ fileId, reply: submission.reply() }, { status: 400 });
    const { athleteNumber, orientation } = submission.value;
    const matched = matchFileByHand(
      contest.id,
      submission.value.fileId,
      { athleteNumber, orientation },
      contest.bibNumberLabel,
    );
    if (!matched.ok)
      return data<ActionData>(
        { fileId, reply: submission.reply({ fieldErrors: { athleteNumber: [matched.message] } }) },
        { status: matched.status },
      );
    return toast(
      "success",
      "割り当てました",
      `${contest.bibNumberLabel} ${athleteNumber} に割り当てました。`,
    );
  }
  const parsed = deliveryActionSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success)
    return data<ActionData>(
      { fileId: null, error: "操作を読み取れませんでした。もう一度お試しください。" },
      { status: 400 },
    );
  const input = parsed.data;
  switch (input.intent) {
    case "match-by-name": {
      const result = matchFileByHand(contest.id, input.fileId, null, contest.bibNumberLabel);
      return result.ok
        ? toast("success", "ファイル名での照合に戻しました")
        : toast("error", "エラー", result.message);
    }
    case "remove": {
      const result = await removeWaitingFile(contest.id, input.fileId);
      return result.ok
        ? toast("success", "ファイルを削除しました")
        : toast("error", "エラー", result.message);
    }
    case "deliver-all": {
      const result = deliverContest(contest.id);
      if (!result) return toast("error", "エラー", "大会が見つかりません");
      if (result.delivered.length === 0 && result.replaced.length === 0)
        return toast(
          "error",
          "納品できる注文はありません",
          "すべての明細にファイルがそろった注文がありません。",
        );
      const parts = [
        result.delivered.length
          ? `${result.delivered.length} 件の注文を納品しました（納品メール ${result.mails} 通）。`
          : "",
        result.replaced.length
          ? `${result.replaced.length} 件の納品済みの注文のファイルを差し替えました。`
          : "",
        result.incomplete.length
          ? `ファイルが足りない ${result.incomplete.length} 件の注文は未対応のままです。`
          : "",
      ];
      return toast("success", "一括納品完了", parts.join(""));
    }
    case "resend": {
      const result = await resendAfterReplacement(contest.id, input.orderId);
      if (result === "sent") return toast("success", "納品メールを再送信しました");
      if (result === "queued")
        return toast("error", "メール送信に失敗しました", "メールサーバーが復旧ししだい自動で再送します。");
      return toast("error", "エラー", "注文が見つかりません");
    }
  }
}

export default function DeliveryFiles() {
  const screen = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  // One hand-match form on the page at a time: the row the admin opened (?file=) or the one a mistake came back to.
  const editing = actionData?.reply ? actionData.fileId : positiveId(searchParams.get("file"));
  const navigation = useNavigation();
  const delivering = navigation.formData?.get("intent") === "deliver-all";
  const label = screen.numberLabel;
  const waitingCount = screen.matched.length + screen.ambiguous.length + screen.unmatched.length;

  return (
    <div className="space-y-8">
      <section aria-labelledby="delivery-summary" className="rounded-2xl bg-white p-4 shadow-sm sm:p-6">
        <h2 id="delivery-summary" className="text-lg font-bold">
          納品ファイル
        </h2>
        <p className="mt-1 text-sm text-zinc-600">
          編集済みの動画をまとめてアップロードすると、ファイル名の{label}とスタイル（例: 12_縦.mp4、No12
          横.mov）から注文に割り当てます。同じ選手・スタイルを注文したご家族には同じファイルが届きます。内容を確認してから「一括納品」を押してください。
        </p>
        <dl className="mt-4 grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
          <Count label="納品できる注文" value={screen.ready.length} tone="good" />
          <Count
            label="ファイル待ちの注文"
            value={screen.incomplete.length}
            tone={screen.incomplete.length ? "warn" : "plain"}
          />
          <Count
            label="要確認のファイル"
            value={screen.ambiguous.length}
            tone={screen.ambiguous.length ? "warn" : "plain"}
          />
          <Count
            label="照合できないファイル"
            value={screen.unmatched.length}
            tone={screen.unmatched.length ? "bad" : "plain"}
          />
        </dl>
        <Form method="post" className="mt-5 flex flex-wrap items-center gap-3">
          <input type="hidden" name="intent" value="deliver-all" />
          <button
            type="submit"
            className="btn-primary"
            disabled={delivering || (screen.ready.length === 0 && screen.replacing === 0)}
          >
            {delivering ? "納品中..." : `一括納品（${screen.ready.length} 件の注文）`}
          </button>
          <p className="text-sm text-zinc-600">
            ファイルがそろった注文だけを納品し、お客様に納品メールを 1 通ずつ送ります。
            {screen.replacing ? `差し替えファイル ${screen.replacing} 件も反映します。` : ""}
          </p>
        </Form>
        <p className="mt-3 text-sm">
          <Link to={`/admin/orders?contest=${screen.contestId}`} className="text-brand-700 underline">
            この大会の注文一覧
          </Link>
        </p>
      </section>

      <DeliveryUploadPanel
        contestId={screen.contestId}
        maxUploadBytes={screen.maxUploadBytes}
        serverError={actionData && actionData.fileId === null ? (actionData.error ?? null) : null}
      />

      {screen.changedSinceMail.length > 0 ? (
        <section
          aria-labelledby="resend-title"
          className="rounded-2xl border border-amber-300 bg-amber-50 p-4 sm:p-5"
        >
          <h2 id="resend-title" className="font-bold text-amber-900">
            差し替えた注文への納品メール
          </h2>
          <p className="mt-1 text-sm text-amber-900">
            ファイルを差し替えた納品済みの注文です。お客様に知らせる場合は納品メールを再送信してください（ダウンロード回数はリセット済みです）。
          </p>
          <ul className="mt-3 space-y-2">
            {screen.changedSinceMail.map((order) => (
              <li
                key={order.id}
                className="flex flex-wrap items-center gap-3 rounded-xl bg-white p-3 text-sm"
              >
                <span className="flex-1">
                  注文番号 {order.orderNumber}・{order.customerName} 様
                </span>
                <Form method="post">
                  <input type="hidden" name="intent" value="resend" />
                  <input type="hidden" name="orderId" value={order.id} />
                  <button type="submit" className="btn-secondary min-h-9 py-1 text-sm">
                    納品メールを再送信
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <FileSection
        id="matched"
        title="照合済みのファイル"
        empty={
          waitingCount === 0
            ? "未納品のファイルはありません。上からアップロードしてください。"
            : "照合済みのファイルはありません。"
        }
        files={screen.matched}
        screen={screen}
        actionData={actionData}
        editing={editing}
      />
      {screen.ambiguous.length > 0 ? (
        <FileSection
          id="ambiguous"
          title="要確認のファイル"
          files={screen.ambiguous}
          screen={screen}
          actionData={actionData}
          editing={editing}
        />
      ) : null}
      {screen.unmatched.length > 0 ? (
        <FileSection
          id="unmatched"
          title="照合できないファイル"
          files={screen.unmatched}
          screen={screen}
          actionData={actionData}
          editing={editing}
        />
      ) : null}

      <section aria-labelledby="missing-title">
        <h2 id="missing-title" className="text-lg font-bold">
          ファイル未設定の明細
        </h2>
        {screen.missing.length === 0 ? (
          <p className="mt-2 text-sm text-zinc-600">未対応の注文の明細には、すべてファイルがあります。</p>
        ) : (
          <div className="mt-2 overflow-x-auto rounded-xl bg-white shadow-sm">
            <table className="w-full text-sm">
              <thead className="border-b border-zinc-200 text-left text-xs text-zinc-500">
                <tr>
                  <th className="px-3 py-2">{label}</th>
                  <th className="px-3 py-2">選手名</th>
                  <th className="px-3 py-2">スタイル</th>
                  <th className="px-3 py-2">注文</th>
                </tr>
              </thead>
              <tbody>
                {screen.missing.map((line) => (
                  <tr
                    key={`${line.athleteId ?? line.athleteName}:${line.athleteNumber}:${line.orientation}`}
                    className="border-b border-zinc-100 last:border-0"
                  >
                    <td className="px-3 py-2 font-semibold">{line.athleteNumber}</td>
                    <td className="px-3 py-2">
                      {line.athleteName}
                      {line.athleteId === null ? (
                        <span className="ml-2 text-xs text-red-700">（選手が削除されています）</span>
                      ) : null}
                    </td>
                    <td className="px-3 py-2">{line.style}</td>
                    <td className="px-3 py-2 font-mono text-xs">{line.orderNumbers.join("、")}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {screen.incomplete.length > 0 ? (
          <p className="mt-2 text-sm text-zinc-600">
            ファイル待ちの注文（未対応のまま残ります）:{" "}
            <span className="font-mono text-xs">
              {screen.incomplete.map((order) => order.orderNumber).join("、")}
            </span>
          </p>
        ) : null}
        {screen.declined.length > 0 ? (
          <p className="mt-2 text-sm text-red-800">
            お断りの明細を含む注文は一括納品しません。
            <Link to={`/admin/orders?contest=${screen.contestId}`} className="underline">
              注文一覧
            </Link>
            で対応してください:{" "}
            <span className="font-mono text-xs">
              {screen.declined.map((order) => order.orderNumber).join("、")}
            </span>
          </p>
        ) : null}
      </section>

      {screen.delivered.length > 0 ? (
        <details className="rounded-2xl bg-white p-4 shadow-sm sm:p-5">
          <summary className="cursor-pointer font-bold">
            納品済みのファイル（{screen.delivered.length} 件）
          </summary>
          <ul className="mt-3 divide-y divide-zinc-100 text-sm">
            {screen.delivered.map((file) => (
              <li key={file.id} className="flex flex-wrap items-center gap-x-4 gap-y-1 py-2">
                <span className="min-w-0 flex-1 break-all">{file.originalName}</span>
                <span>
                  {file.athlete
                    ? `${label} ${file.athlete.athleteNumber} ${file.athlete.name}`
                    : "（選手なし）"}
                  ・{file.style}
                </span>
                <span className="text-zinc-600">{file.lineCount} 明細</span>
                <ReplaceForm
                  fileId={file.id}
                  fileName={file.originalName}
                  error={actionData?.fileId === file.id ? (actionData.error ?? null) : null}
                />
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}

function Count({
  label,
  value,
  tone,
}: {
  label: string;
  value: number;
  tone: "good" | "warn" | "bad" | "plain";
}) {
  const color =
    tone === "good"
      ? "text-emerald-700"
      : tone === "warn"
        ? "text-amber-700"
        : tone === "bad"
          ? "text-red-700"
          : "text-zinc-900";
  return (
    <div className="rounded-xl border border-zinc-200 px-3 py-2">
      <dt className="text-xs text-zinc-600">{label}</dt>
      <dd className={`text-2xl font-bold ${color}`}>{value}</dd>
    </div>
  );
}

function FileSection({
  id,
  title,
  files,
  empty,
  screen,
  actionData,
  editing,
}: {
  id: string;
  title: string;
  files: ScreenFile[];
  empty?: string;
  screen: Pick<DeliveryScreen, "numberLabel" | "styles">;
  actionData: ActionData | undefined;
  editing: number | null;
}) {
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="text-lg font-bold">
        {title}（{files.length} 件）
      </h2>
      {files.length === 0 ? (
        <p className="mt-2 text-sm text-zinc-600">{empty}</p>
      ) : (
        <ul className="mt-2 space-y-3">
          {files.map((file) => (
            <FileRow
              key={file.id}
              file={file}
              screen={screen}
              actionData={actionData?.fileId === file.id ? actionData : undefined}
              editing={editing === file.id}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function FileRow({
  file,
  screen,
  actionData,
  editing,
}: {
  file: ScreenFile;
  screen: Pick<DeliveryScreen, "numberLabel" | "styles">;
  actionData: ActionData | undefined;
  editing: boolean;
}) {
  const label = screen.numberLabel;
  return (
    <li
      className="rounded-xl bg-white p-3 shadow-sm sm:px-4 lg:grid lg:grid-cols-[minmax(0,16rem)_minmax(0,1fr)] lg:gap-x-6"
      id={`file-${file.id}`}
      data-file={file.originalName}
    >
      <p className="font-semibold break-all">
        {file.originalName}
        <span className="ml-2 text-xs font-normal text-zinc-500">{formatBytes(file.size)}</span>
      </p>
      <div className="min-w-0">
        {file.athlete ? (
          <p className="mt-1 text-sm lg:mt-0">
            → {label} <strong>{file.athlete.athleteNumber}</strong> {file.athlete.name}・{file.style}
            {file.byHand ? (
              <span className="ml-2 rounded bg-sky-100 px-1.5 py-0.5 text-xs text-sky-800">手動</span>
            ) : null}
            {file.replaces ? (
              <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs font-bold text-amber-800">
                差し替え
              </span>
            ) : null}
          </p>
        ) : (
          <p className="mt-1 text-sm font-semibold text-red-700 lg:mt-0">{file.reason}</p>
        )}
        {file.athlete ? (
          <p className="mt-1 text-xs text-zinc-600">
            {file.orderNumbers.length
              ? `納品する注文: ${file.orderNumbers.join("、")}`
              : file.replaces
                ? ""
                : "対象の未対応の注文はまだありません（今後の注文に使われます）"}
            {file.replaces
              ? `差し替え: 「${file.replaces.originalName}」を置き換えます（注文 ${file.replaces.orderNumbers.join("、")}）`
              : ""}
          </p>
        ) : null}
        {file.candidates.length > 0 ? (
          <div className="mt-2 flex flex-wrap gap-2">
            {file.candidates
              .filter((candidate) => candidate.orientation !== null)
              .map((candidate) => (
                <Form method="post" key={`${candidate.athleteNumber}:${candidate.orientation}`}>
                  <input type="hidden" name="intent" value="match" />
                  <input type="hidden" name="fileId" value={file.id} />
                  <input type="hidden" name="athleteNumber" value={candidate.athleteNumber} />
                  <input type="hidden" name="orientation" value={candidate.orientation ?? ""} />
                  <button type="submit" className="btn-secondary min-h-9 py-1 text-sm">
                    {label} {candidate.athleteNumber} {candidate.name}・{candidate.style} に割り当て
                  </button>
                </Form>
              ))}
          </div>
        ) : null}
        <div className="mt-1 flex flex-wrap items-start gap-x-4 gap-y-1">
          {editing ? null : (
            <Link to={`?file=${file.id}#file-${file.id}`} className="text-sm text-brand-700 underline">
              手動で割り当て
            </Link>
          )}
          <ReplaceForm fileId={file.id} fileName={file.originalName} error={actionData?.error ?? null} />
          {file.byHand ? (
            <Form method="post">
              <input type="hidden" name="intent" value="match-by-name" />
              <input type="hidden" name="fileId" value={file.id} />
              <button type="submit" className="text-sm text-zinc-600 underline">
                ファイル名での照合に戻す
              </button>
            </Form>
          ) : null}
          <Form method="post">
            <input type="hidden" name="intent" value="remove" />
            <input type="hidden" name="fileId" value={file.id} />
            <button
              type="submit"
              className="text-sm text-red-700 underline"
              aria-label={`${file.originalName} を削除`}
            >
              削除
            </button>
          </Form>
        </div>
      </div>
      {editing ? <MatchForm file={file} screen={screen} lastResult={actionData?.reply} /> : null}
    </li>
  );
}

/** 割り当て: the athlete's number and a style; the server finds the athlete. */
function MatchForm({
  file,
  screen,
  lastResult,
}: {
  file: ScreenFile;
  screen: Pick<DeliveryScreen, "numberLabel" | "styles">;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const [form, fields] = useForm({
    id: `match-${file.id}`,
    lastResult,
    defaultValue: {
      athleteNumber: file.athlete?.athleteNumber.toString() ?? "",
      orientation: file.orientation ?? screen.styles[0]?.orientation ?? "vertical",
    },
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: fileMatchSchema }),
  });
  return (
    <Form
      method="post"
      {...getFormProps(form)}
      aria-label={`${file.originalName} を手動で割り当て`}
      className="mt-3 flex flex-wrap items-end gap-2 rounded-lg bg-zinc-50 p-3 lg:col-start-2"
    >
      <input type="hidden" name="intent" value="match" />
      <input type="hidden" name="fileId" value={file.id} />
      <div>
        <label htmlFor={fields.athleteNumber.id} className="field-label">
          {screen.numberLabel}
        </label>
        <input
          {...getInputProps(fields.athleteNumber, { type: "text" })}
          inputMode="numeric"
          className="field-input w-28"
        />
      </div>
      <div>
        <label htmlFor={fields.orientation.id} className="field-label">
          スタイル
        </label>
        <select {...getSelectProps(fields.orientation)} className="field-input">
          {screen.styles.map((style) => (
            <option key={style.orientation} value={style.orientation}>
              {style.name}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="btn-secondary min-h-10">
        割り当て
      </button>
      <Link to="." className="self-center text-sm text-zinc-600 underline">
        閉じる
      </Link>
      <div className="basis-full">
        <FieldError id={fields.athleteNumber.errorId} errors={fields.athleteNumber.errors} announce />
        <FieldError id={fields.orientation.errorId} errors={fields.orientation.errors} announce />
        <FieldError id={form.errorId} errors={form.errors} announce />
      </div>
    </Form>
  );
}

/** 差し替え: a corrected video keeps the file's athlete and style (a plain form, with or without JavaScript). */
function ReplaceForm({
  fileId,
  fileName,
  error,
}: {
  fileId: number;
  fileName: string;
  error: string | null;
}) {
  const hydrated = useHydrated();
  return (
    <details className="text-sm" open={Boolean(error) || undefined}>
      <summary className="cursor-pointer text-brand-700 underline">差し替え</summary>
      <Form
        method="post"
        action={`?intent=replace&fileId=${fileId}`}
        encType="multipart/form-data"
        className="mt-2 flex flex-wrap items-center gap-2"
      >
        <label className="sr-only" htmlFor={`replace-${fileId}`}>
          {fileName} の差し替えファイル
        </label>
        <input
          id={`replace-${fileId}`}
          type="file"
          name="files"
          accept={VIDEO_ACCEPT}
          required={hydrated}
          className="max-w-full text-xs"
        />
        <button type="submit" className="btn-secondary min-h-9 py-1 text-sm">
          差し替える
        </button>
        {error ? (
          <p role="alert" className="field-error basis-full">
            {error}
          </p>
        ) : null}
      </Form>
    </details>
  );
}
