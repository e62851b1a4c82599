import { z } from "zod";
import { THUMBNAIL_PIXELS } from "../rules/media-sizes";
import { VIDEO_ACCEPT, videoTypeOf } from "../rules/video-files";

export { THUMBNAIL_PIXELS };

/** The spec's chunk size (50 MiB); the server may be configured with another and says so at init. */
export const DEFAULT_CHUNK_BYTES = 52_428_800;
/** Media the content tab manages: everything but cover images (those belong to the カバー画像 tab). */
export const CONTENT_CATEGORIES = ["sample", "others"] as const;
export const CONTENT_CATEGORY_LABELS: Record<(typeof CONTENT_CATEGORIES)[number], string> = {
  sample: "サンプル",
  others: "その他",
};

/** The spec's upload messages, in the Japanese the product shows. */
export const UPLOAD_MESSAGES = {
  noFile: "ファイルを選択してください",
  onlyMedia: "動画または画像ファイルを選択してください",
  noUploadId: "サーバーからアップロードIDを取得できませんでした",
  chunkFailed: (status: number) => `チャンクのアップロードに失敗しました: ${status}`,
  chunkNetwork: "チャンクのアップロード中に通信エラーが発生しました",
  general: "アップロードに失敗しました。もう一度お試しください。",
  /**
   * Above the queue after a run with failures, and the plain form's toast: how many files were not
   * taken (their names and reasons follow), so none is missed in a long batch.
   */
  filesRefused: (count: number) => `${count} 件のファイルを受け付けられませんでした`,
} as const;

export const THUMBNAIL_SIZE_ERROR_TITLE = "サイズエラー";

/** The サイズエラー text, the same whether the browser or the server noticed. */
export function thumbnailSizeMessage(width: number | undefined, height: number | undefined): string {
  return `サムネイルは ${THUMBNAIL_PIXELS}×${THUMBNAIL_PIXELS} ピクセルの画像にしてください（選択した画像: ${width ?? "?"}×${height ?? "?"}）`;
}

const fileName = z
  .string({ required_error: "ファイル名がありません" })
  .trim()
  .min(1, "ファイル名がありません")
  .max(255, "ファイル名が長すぎます（255 文字まで）");

/** POST …/media/chunked-init (the spec's fields; totalChunks is advisory, the server answers its own). */
export const chunkedInitSchema = z
  .object({
    fileName,
    fileSize: z.coerce
      .number({ invalid_type_error: "ファイルサイズが正しくありません" })
      .int("ファイルサイズが正しくありません")
      .positive("空のファイルはアップロードできません"),
    contentType: z
      .string({ required_error: UPLOAD_MESSAGES.onlyMedia })
      .trim()
      .toLowerCase()
      .regex(/^(video|image)\/[a-z0-9.+-]+$/, UPLOAD_MESSAGES.onlyMedia),
    mediaType: z.enum(["video", "image"], { message: "mediaType は video か image を指定してください" }),
    totalChunks: z.coerce.number().int().positive().optional(),
    category: z
      .enum(CONTENT_CATEGORIES, { message: "カテゴリは sample か others を指定してください" })
      .default("sample"),
    /** media (the default): a sample or other media item; delivery: an edited video for the 納品ファイル tab. */
    purpose: z
      .enum(["media", "delivery"], { message: "purpose は media か delivery を指定してください" })
      .default("media"),
    /** A resume hint the browser kept in localStorage. */
    uploadId: z
      .string()
      .regex(/^[a-f0-9]{32}$/)
      .optional(),
  })
  .refine((value) => value.contentType.startsWith(`${value.mediaType}/`), {
    path: ["mediaType"],
    message: "mediaType がファイルの種類と一致しません",
  })
  .refine((value) => value.purpose === "media" || value.mediaType === "video", {
    path: ["mediaType"],
    message: "納品ファイルは動画（MP4・MOV・WebM）を選択してください",
  });
export type ChunkedInit = z.infer<typeof chunkedInitSchema>;

export const uploadIdSchema = z.object({
  uploadId: z
    .string({ required_error: "uploadId がありません" })
    .regex(/^[a-f0-9]{32}$/, "uploadId が正しくありません"),
});

/** PATCH …/media/{mediaId}: the position the item moves to; it swaps with the item there. */
export const mediaOrderSchema = z.object({
  displayOrder: z.coerce
    .number({ invalid_type_error: "displayOrder は 0 以上の整数で指定してください" })
    .int("displayOrder は 0 以上の整数で指定してください")
    .min(0, "displayOrder は 0 以上の整数で指定してください"),
});

/** POST …/media/{mediaId}/thumbnail as the spec sends it: a base64 data URL. */
export const thumbnailJsonSchema = z.object({
  data: z
    .string({ required_error: "画像データがありません" })
    .regex(
      /^data:image\/[a-z0-9.+-]+;base64,[A-Za-z0-9+/=\s]+$/,
      "画像データ（data URL）の形式が正しくありません",
    ),
  originalName: z.string().max(255).optional(),
  contentType: z.string().max(100).optional(),
});

/** The content tab's small form posts (without JS, and the JS buttons post the same). */
export const contentActionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("move"),
    mediaId: z.coerce.number().int().positive(),
    direction: z.enum(["up", "down"]),
  }),
  z.object({ intent: z.literal("delete"), mediaId: z.coerce.number().int().positive() }),
  z.object({ intent: z.literal("remove-thumbnail"), mediaId: z.coerce.number().int().positive() }),
  /** 再実行 of a video's failed poster. */
  z.object({ intent: z.literal("retry"), mediaId: z.coerce.number().int().positive() }),
  z.object({ intent: z.literal("discard-upload"), uploadId: z.string().regex(/^[a-f0-9]{32}$/) }),
]);

/**
 * What the browser may pick: the spec accepts video/* and image/* only. A video whose system
 * reports no type (Chromium's .MOV) is known by its name, as on the 納品ファイル tab.
 */
export function isMediaFile(file: { name: string; type: string }): boolean {
  return file.type.startsWith("image/") || videoTypeOf(file) !== null;
}

/** The upload input's accept: the videos by type and by extension, and images. */
export const MEDIA_ACCEPT = `${VIDEO_ACCEPT},image/*`;
