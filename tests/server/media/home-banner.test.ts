import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { parseEnv } from "~/server/core/env.server";
import {
  bannerRendition,
  bannerWidth,
  DEFAULT_BANNER_ALT,
  homeBanner,
} from "~/server/media/home-banner.server";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "home-banner-"));
const photo = path.join(dir, "banner.jpg");

beforeAll(async () => {
  await sharp({ create: { width: 1600, height: 600, channels: 3, background: "#c8102e" } })
    .jpeg()
    .toFile(photo);
  fs.writeFileSync(path.join(dir, "notes.txt"), "not an image at all");
});

describe("the home banner is the shop's photo when configured, else the drawing", () => {
  it("checks HOME_BANNER_IMAGE at start-up, naming the variable", () => {
    expect(parseEnv({ HOME_BANNER_IMAGE: photo }).HOME_BANNER_IMAGE).toBe(photo);
    expect(parseEnv({ HOME_BANNER_IMAGE: "" }).HOME_BANNER_IMAGE).toBeUndefined();
    expect(() => parseEnv({ HOME_BANNER_IMAGE: path.join(dir, "missing.jpg") })).toThrowError(
      /HOME_BANNER_IMAGE: 画像ファイルが見つかりません/,
    );
    expect(() => parseEnv({ HOME_BANNER_IMAGE: dir })).toThrowError(/HOME_BANNER_IMAGE/);
    expect(() => parseEnv({ HOME_BANNER_IMAGE: path.join(dir, "notes.txt") })).toThrowError(
      /HOME_BANNER_IMAGE: JPEG・PNG・WebP の画像ファイルを指定してください/,
    );
  });

  it("shows the drawing shipped with the app when nothing is configured", () => {
    expect(homeBanner(undefined, undefined, "/assets/home-banner.svg")).toEqual({
      src: "/assets/home-banner.svg",
      srcSet: null,
      alt: DEFAULT_BANNER_ALT,
    });
  });

  it("serves a configured photo in three widths, its URLs changing with the file", async () => {
    const banner = homeBanner(photo, "桜ヶ丘ホールの舞台", "/assets/home-banner.svg");
    expect(banner.alt).toBe("桜ヶ丘ホールの舞台");
    expect(banner.src).toMatch(/^\/home-banner\/1280\.webp\?v=\w+$/);
    expect(banner.srcSet?.split(", ").map((entry) => entry.split(" ")[1])).toEqual([
      "640w",
      "1280w",
      "1920w",
    ]);
    expect(homeBanner(photo, undefined, "/x.svg").alt).toBe("コンテスト動画ショップのバナー写真");

    const small = await bannerRendition(photo, 640);
    expect(await sharp(small).metadata()).toMatchObject({ format: "webp", width: 640, height: 240 });
    // Never enlarged beyond the photo itself.
    expect((await sharp(await bannerRendition(photo, 1920)).metadata()).width).toBe(1600);

    fs.utimesSync(photo, new Date(), new Date(Date.now() + 60_000));
    expect(homeBanner(photo, undefined, "/x.svg").src).not.toBe(banner.src);
  });

  it("answers only the listed widths", () => {
    expect(bannerWidth("640.webp")).toBe(640);
    expect(bannerWidth("1920.webp")).toBe(1920);
    for (const bad of ["641.webp", "640.png", "../640.webp", "", undefined])
      expect(bannerWidth(bad)).toBeNull();
  });
});
