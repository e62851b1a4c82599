import { useRevalidator } from "@remix-run/react";
import { useRef, useState, type DragEvent, type FormEvent } from "react";
import { uploadInChunks, UploadFailed, type UploadPurpose } from "../browser/chunked-upload";
import { formatBytes } from "../rules/format";
import { UPLOAD_MESSAGES } from "../schemas/media-schemas";

export type QueuedFile = {
  key: string;
  file: File;
  loaded: number;
  state: "待機中" | "アップロード中" | "完了" | "失敗";
  error?: string;
};

export const percentOf = (part: number, whole: number) => (whole > 0 ? Math.floor((part / whole) * 100) : 0);

/**
 * The browser side of a tab that uploads several files: the files chosen or dropped, each sent
 * in turn through the chunked, resumable upload with its progress, then the page's data
 * reloaded. Used as the form's onSubmit once hydrated; without JavaScript the form posts itself.
 */
export function useUploadQueue(options: {
  contestId: number;
  purpose: UploadPurpose;
  category?: string;
  maxUploadBytes: number;
  accepts: (file: File) => boolean;
  /** Shown, with the refused names, when a chosen file is not of a kind the tab takes. */
  notAccepted: string;
  noFile: string;
}) {
  const revalidator = useRevalidator();
  const inputRef = useRef<HTMLInputElement>(null);
  const [queue, setQueue] = useState<QueuedFile[]>([]);
  const [uploading, setUploading] = useState(false);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);

  const choose = (files: FileList | null) => {
    setFieldError(null);
    const picked = Array.from(files ?? []);
    const refused = picked.filter((file) => !options.accepts(file));
    if (refused.length > 0)
      setFieldError(`${options.notAccepted}（${refused.map((file) => file.name).join("、")}）`);
    setQueue(
      picked
        .filter(options.accepts)
        .map((file, index) => ({ key: `${index}-${file.name}`, file, loaded: 0, state: "待機中" })),
    );
  };

  const update = (key: string, change: Partial<QueuedFile>) =>
    setQueue((current) => current.map((entry) => (entry.key === key ? { ...entry, ...change } : entry)));

  /** Sends the waiting files one after another (the queue's rows say how each went). */
  const start = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    if (uploading) return;
    const waiting = queue.filter((entry) => entry.state !== "完了");
    if (waiting.length === 0) {
      setFieldError(options.noFile);
      return;
    }
    const tooBig = waiting.find((entry) => entry.file.size > options.maxUploadBytes);
    if (tooBig) {
      setFieldError(
        `ファイルが大きすぎます（上限 ${formatBytes(options.maxUploadBytes)}）: ${tooBig.file.name}`,
      );
      return;
    }
    setUploading(true);
    for (const entry of waiting) {
      update(entry.key, { state: "アップロード中", error: undefined });
      try {
        await uploadInChunks({
          contestId: options.contestId,
          file: entry.file,
          purpose: options.purpose,
          category: options.category,
          onProgress: (loaded) => update(entry.key, { loaded }),
        });
        update(entry.key, { state: "完了", loaded: entry.file.size });
      } catch (caught) {
        // A refused file shows no full bar: nothing of it was kept.
        update(entry.key, {
          state: "失敗",
          loaded: 0,
          error: caught instanceof UploadFailed ? caught.message : UPLOAD_MESSAGES.general,
        });
      }
    }
    setUploading(false);
    if (inputRef.current) inputRef.current.value = "";
    revalidator.revalidate();
  };

  /** Props for the drop zone: dropped files become the input's selection. */
  const dropZone = {
    onDragOver: (event: DragEvent<HTMLDivElement>) => {
      event.preventDefault();
      if (!uploading) setDragging(true);
    },
    onDragLeave: () => setDragging(false),
    onDrop: (event: DragEvent<HTMLDivElement>) => {
      event.preventDefault();
      setDragging(false);
      if (uploading) {
        setFieldError("アップロード中は新しいファイルを選択できません");
        return;
      }
      if (inputRef.current) inputRef.current.files = event.dataTransfer.files;
      choose(event.dataTransfer.files);
    },
  };

  return { inputRef, queue, uploading, fieldError, dragging, choose, start, dropZone };
}
