import { Form } from "@remix-run/react";
import { useHydrated } from "~/lib/hooks/use-hydrated";
import { VIDEO_ACCEPT } from "~/lib/rules/video-files";

/** 差し替え: a corrected video keeps the file's athlete and style (a plain form, with or without JavaScript). */
export function ReplaceForm({
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
