import { Form } from "@remix-run/react";
import { useEffect, useMemo, useState } from "react";
import { FileField, SubmitRow } from "~/components/forms";
import { useIsPending } from "~/lib/hooks/use-is-pending";
import { formatBytes } from "~/lib/rules/format";
import { useShopForm } from "~/lib/hooks/use-shop-form";
import { fieldRefusal } from "~/lib/schemas/field-refusal";

type Preview = { url: string; name: string; width: number | null; height: number | null };

/**
 * カバー画像をアップロード: the file, a preview of the chosen image with its size against the
 * recommended one, and the server's refusal under the field. The form is checked by the server
 * only (the file is streamed there), so conform validates nothing in the browser; the page keys
 * it by the current cover, so a new cover starts a fresh form.
 */
export function CoverUploadForm({
  maxBytes,
  recommended,
  refusal,
}: {
  maxBytes: number;
  recommended: { width: number; height: number };
  /** The server's message when it refused the last post. */
  refusal: string | null;
}) {
  // conform's reply to the refused post: a new one for each refusal, so conform shows it.
  const lastResult = useMemo(() => (refusal === null ? null : fieldRefusal("cover", refusal)), [refusal]);
  const [form, fields] = useShopForm<{ cover: File }>({
    id: "cover-upload",
    lastResult,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onSubmit",
  });
  const uploading = useIsPending({ state: "submitting" });
  const busy = useIsPending();
  const [preview, setPreview] = useState<Preview | null>(null);
  const previewUrl = preview?.url;
  useEffect(
    () => () => {
      if (previewUrl) URL.revokeObjectURL(previewUrl);
    },
    [previewUrl],
  );
  // The chosen file is gone once the upload has replaced the cover.
  useEffect(() => {
    if (!busy && !refusal) setPreview(null);
  }, [busy, refusal]);

  return (
    <section aria-labelledby="upload-cover-title" className="rounded-2xl bg-white p-5 shadow-sm">
      <h2 id="upload-cover-title" className="text-lg font-bold">
        カバー画像をアップロード
      </h2>
      <p className="mt-1 text-sm text-zinc-600">
        JPEG・PNG・WebP形式、{formatBytes(maxBytes)}まで。推奨サイズは{recommended.width}×{recommended.height}
        ピクセル（16:9）です。新しい画像をアップロードすると、以前のカバー画像は削除されます。
      </p>
      <Form id={form.id} method="post" encType="multipart/form-data" className="mt-4 space-y-4">
        <FileField
          label="画像ファイル"
          meta={fields.cover}
          announce
          inputProps={{
            accept: "image/jpeg,image/png,image/webp",
            className:
              "block w-full text-sm file:mr-3 file:min-h-11 file:rounded-lg file:border file:border-zinc-300 file:bg-white file:px-4 file:font-semibold file:text-zinc-800 hover:file:bg-zinc-100",
            onChange: (event) => {
              const file = event.currentTarget.files?.[0];
              if (!file || !file.type.startsWith("image/")) return setPreview(null);
              const url = URL.createObjectURL(file);
              setPreview({ url, name: file.name, width: null, height: null });
            },
          }}
        />
        {preview ? (
          <figure aria-label="選択した画像のプレビュー">
            <div className="aspect-video overflow-hidden rounded-lg bg-zinc-100">
              <img
                src={preview.url}
                alt="選択した画像のプレビュー"
                className="h-full w-full object-cover"
                onLoad={(event) => {
                  const { naturalWidth, naturalHeight } = event.currentTarget;
                  setPreview((current) =>
                    current && current.url === preview.url
                      ? { ...current, width: naturalWidth, height: naturalHeight }
                      : current,
                  );
                }}
              />
            </div>
            <figcaption className="mt-2 text-sm text-zinc-700">
              <span className="break-all">{preview.name}</span>
              {preview.width && preview.height ? (
                <span className="block">
                  {preview.width}×{preview.height}ピクセル
                  {preview.width !== recommended.width || preview.height !== recommended.height
                    ? `（推奨は${recommended.width}×${recommended.height}ピクセルです）`
                    : ""}
                </span>
              ) : null}
            </figcaption>
          </figure>
        ) : null}
        <SubmitRow busy={uploading} busyLabel="アップロード中...">
          アップロード
        </SubmitRow>
      </Form>
    </section>
  );
}
