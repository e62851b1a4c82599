import { sniffMedia } from "../core/sniff.server";
import { checkUploadedVideo, notPlayableMessage } from "../media/probe.server";
import type { CompletedUpload, DeliveryAdoption } from "../media/upload-completion.server";
import { uploadFailure } from "../media/upload-rows.server";
import { withVideoSource } from "../media/video-source.server";
import { recordDeliveryFile, type DeliveryFile } from "./delivery-files.server";

/**
 * A chunked upload meant for delivery, stored whole: it becomes a delivery file of the contest
 * when its first bytes and ffprobe say it is a video. Handed to media's completeChunkedUpload by
 * the route, as media (below delivery) knows nothing of delivery files; a refusal's file is
 * deleted there.
 */
export async function adoptDeliveryUpload(
  contestId: number,
  upload: CompletedUpload,
): Promise<DeliveryAdoption<DeliveryFile>> {
  const kind = sniffMedia(upload.head);
  // Bytes that are no video at all are refused in ffprobe's words, naming the file, as the plain
  // form refuses them: in a batch the admin must know which file, and that it will not play.
  if (!kind || kind.mediaType !== "video" || !upload.storedName.endsWith(`.${kind.extension}`))
    return uploadFailure(415, notPlayableMessage(upload.originalName));
  // ffprobe reads the stored file where it lies (object storage: through a signed URL), as the
  // kind its first bytes said.
  const checked = await withVideoSource(upload.storedName, kind.extension, (input) =>
    checkUploadedVideo(input, upload.originalName),
  );
  if (!checked.ok) return uploadFailure(415, checked.message);
  return {
    ok: true,
    deliveryFile: recordDeliveryFile(
      contestId,
      {
        storedName: upload.storedName,
        contentType: kind.contentType,
        size: upload.size,
        video: checked.video,
      },
      upload.originalName,
    ),
  };
}
