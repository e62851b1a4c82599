import { describe, expect, it } from "vitest";
import { VIDEO_ACCEPT, videoTypeOf } from "~/lib/rules/video-files";
import { isMediaFile, MEDIA_ACCEPT } from "~/lib/schemas/media-schemas";

describe("which chosen file is a video, in the browser (lib/rules/video-files)", () => {
  it("takes the type the system reports for a video", () => {
    expect(videoTypeOf({ name: "12_縦.mp4", type: "video/mp4" })).toBe("video/mp4");
    expect(videoTypeOf({ name: "clip", type: "video/quicktime" })).toBe("video/quicktime");
  });

  // Regression: Chromium reports no type for IMG_2207.MOV, and the tab refused it.
  it("goes by the name's extension when the type is unknown, for the kinds the server stores", () => {
    expect(videoTypeOf({ name: "IMG_2207.MOV", type: "" })).toBe("video/quicktime");
    expect(videoTypeOf({ name: "12_横.mov", type: "application/octet-stream" })).toBe("video/quicktime");
    expect(videoTypeOf({ name: "03.M4V", type: "" })).toBe("video/mp4");
    expect(videoTypeOf({ name: "03.webm", type: "" })).toBe("video/webm");
  });

  it("refuses what is not a video: another type, or an unknown type with another extension", () => {
    expect(videoTypeOf({ name: "IMG_2207.MOV", type: "image/jpeg" })).toBeNull();
    expect(videoTypeOf({ name: "notes.txt", type: "" })).toBeNull();
    expect(videoTypeOf({ name: "mov", type: "" })).toBeNull();
    expect(videoTypeOf({ name: "12_縦.avi", type: "" })).toBeNull();
  });

  it("lets the file picker show the extensions it takes", () => {
    expect(VIDEO_ACCEPT.split(",")).toEqual(expect.arrayContaining(["video/*", ".mov", ".mp4", ".webm"]));
  });

  // The same bug on the メディア tab: its check asked the type alone for video/* or image/*.
  it("the メディア tab takes a typeless .MOV too, images by their type, and nothing else", () => {
    expect(isMediaFile({ name: "IMG_2207.MOV", type: "" })).toBe(true);
    expect(isMediaFile({ name: "poster.png", type: "image/png" })).toBe(true);
    expect(isMediaFile({ name: "notes.txt", type: "" })).toBe(false);
    expect(isMediaFile({ name: "score.pdf", type: "application/pdf" })).toBe(false);
    expect(MEDIA_ACCEPT.split(",")).toEqual(expect.arrayContaining(["video/*", ".mov", "image/*"]));
  });
});
