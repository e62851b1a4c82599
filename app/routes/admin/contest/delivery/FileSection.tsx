import { Form, Link } from "@remix-run/react";
import { formatBytes } from "~/lib/rules/format";
import type { DeliveryScreen, ScreenFile } from "~/server/delivery/delivery-screen.server";
import type { DeliveryTabError } from "~/server/delivery/delivery-tab.server";
import { VideoJobState } from "~/components/VideoJobState";
import { MatchForm } from "./MatchForm";
import { ReplaceForm } from "./ReplaceForm";

/** A delivery video's poster (served to admins only), small beside its name. */
export function PosterThumb({ url, name }: { url: string; name: string }) {
  return (
    <img
      src={url}
      alt={`${name} のポスター画像`}
      loading="lazy"
      className="h-12 w-20 shrink-0 rounded bg-zinc-100 object-contain sm:h-14 sm:w-24"
    />
  );
}

type ScreenWords = Pick<DeliveryScreen, "numberLabel" | "styles">;

/** One group of waiting files (照合済み, 要確認, 照合できない), each row with its buttons. */
export function FileSection({
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
  screen: ScreenWords;
  actionData: DeliveryTabError | undefined;
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

/** What a waiting file is matched to (or why not), the orders it serves and what it replaces. */
function FileMatchText({ file, numberLabel }: { file: ScreenFile; numberLabel: string }) {
  if (!file.athlete) return <p className="mt-1 text-sm font-semibold text-red-700 lg:mt-0">{file.reason}</p>;
  return (
    <>
      <p className="mt-1 text-sm lg:mt-0">
        → {numberLabel} <strong>{file.athlete.athleteNumber}</strong> {file.athlete.name}・{file.style}
        {file.byHand ? (
          <span className="ml-2 rounded bg-sky-100 px-1.5 py-0.5 text-xs text-sky-800">手動</span>
        ) : null}
        {file.replaces ? (
          <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs font-bold text-amber-800">
            差し替え
          </span>
        ) : null}
      </p>
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
    </>
  );
}

/** The candidates of an ambiguous file, one 割り当て button each. */
function CandidateButtons({ file, numberLabel }: { file: ScreenFile; numberLabel: string }) {
  if (file.candidates.length === 0) return null;
  return (
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
              {numberLabel} {candidate.athleteNumber} {candidate.name}・{candidate.style} に割り当て
            </button>
          </Form>
        ))}
    </div>
  );
}

function FileRow({
  file,
  screen,
  actionData,
  editing,
}: {
  file: ScreenFile;
  screen: ScreenWords;
  actionData: DeliveryTabError | undefined;
  editing: boolean;
}) {
  return (
    <li
      className="rounded-xl bg-white p-3 shadow-sm sm:px-4 lg:grid lg:grid-cols-[minmax(0,20rem)_minmax(0,1fr)] lg:gap-x-6"
      id={`file-${file.id}`}
      data-file={file.originalName}
    >
      <div className="flex min-w-0 gap-3">
        {file.video?.posterUrl ? <PosterThumb url={file.video.posterUrl} name={file.originalName} /> : null}
        <div className="min-w-0">
          <p className="font-semibold break-all">
            {file.originalName}
            <span className="ml-2 text-xs font-normal text-zinc-500">{formatBytes(file.size)}</span>
          </p>
          {file.video ? (
            <VideoJobState
              video={file.video}
              name={file.originalName}
              retry={{ field: "fileId", id: file.id }}
            />
          ) : null}
        </div>
      </div>
      <div className="min-w-0">
        <FileMatchText file={file} numberLabel={screen.numberLabel} />
        <CandidateButtons file={file} numberLabel={screen.numberLabel} />
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
