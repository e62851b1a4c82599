/**
 * Demo data: three contests on sale and one unpublished, each with categories,
 * 縦/横 formats, athletes with prices, a price description and a generated 16:9 cover;
 * and one admin. Running it again adds nothing twice.
 *
 *   npx tsx scripts/seed.ts            (prints the admin login)
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { createContest } from "~/server/catalog/contests.server";
import { db } from "~/server/db/client.server";
import { athletes, categories, contests, mediaItems, priceDescriptions, users } from "~/server/db/schema";
import { env } from "~/server/core/env.server";
import { newStoredName, writeCoverVariants } from "~/server/files/storage.server";
import { fileStore } from "~/server/files/store.server";
import { hashPassword } from "~/server/auth/password.server";

const PALETTE = ["#ef4444", "#f97316", "#eab308", "#22c55e", "#06b6d4", "#3b82f6", "#8b5cf6", "#ec4899"];

type DemoContest = {
  name: string;
  published: boolean;
  bibNumberLabel: string;
  date: string;
  location: string;
  categories: string[];
  athleteCount: number;
  hues: [number, number];
};

const DEMO_CONTESTS: DemoContest[] = [
  {
    name: "第12回 桜ヶ丘ダンスフェスティバル2025",
    published: true,
    bibNumberLabel: "エントリー番号",
    date: "2025年6月14日",
    location: "桜ヶ丘市民ホール",
    categories: ["キッズ部門", "ジュニア部門", "一般部門"],
    athleteCount: 24,
    hues: [330, 260],
  },
  {
    name: "みなと市 春季陸上競技大会",
    published: true,
    bibNumberLabel: "ゼッケン番号",
    date: "2025年5月3日",
    location: "みなと市総合運動公園",
    categories: ["100m", "走り幅跳び", "リレー"],
    athleteCount: 30,
    hues: [200, 140],
  },
  {
    name: "青葉ピアノ発表会 2025",
    published: true,
    bibNumberLabel: "演奏順",
    date: "2025年7月20日",
    location: "青葉文化センター 小ホール",
    categories: ["幼児の部", "小学生の部", "中高生の部"],
    athleteCount: 21,
    hues: [40, 10],
  },
  {
    name: "秋の新体操選手権（準備中）",
    published: false,
    bibNumberLabel: "ゼッケン番号",
    date: "未定",
    location: "",
    categories: ["個人", "団体"],
    athleteCount: 20,
    hues: [280, 200],
  },
];

const FAMILY = [
  "佐藤",
  "鈴木",
  "高橋",
  "田中",
  "伊藤",
  "渡辺",
  "山本",
  "中村",
  "小林",
  "加藤",
  "吉田",
  "山田",
];
const GIVEN = [
  "ひなた",
  "さくら",
  "はると",
  "ゆい",
  "そうた",
  "あおい",
  "りく",
  "めい",
  "ゆうと",
  "こはる",
  "いつき",
  "えま",
];

function coverSvg([from, to]: [number, number], seed: number): string {
  // Stage lights on a gradient: no text, so it renders the same with or without CJK fonts.
  const beams = Array.from({ length: 5 }, (_, i) => {
    const x = 200 + i * 380 + ((seed * 37) % 90);
    return `<polygon points="${x},0 ${x - 260},1080 ${x + 260},1080" fill="white" opacity="${0.05 + ((i + seed) % 3) * 0.03}"/>`;
  }).join("");
  const dots = Array.from({ length: 40 }, (_, i) => {
    const x = (i * 151 + seed * 97) % 1920;
    const y = (i * 89 + seed * 53) % 1080;
    return `<circle cx="${x}" cy="${y}" r="${4 + (i % 5) * 3}" fill="white" opacity="0.18"/>`;
  }).join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1920" height="1080">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="hsl(${from},70%,42%)"/><stop offset="1" stop-color="hsl(${to},65%,22%)"/>
    </linearGradient></defs>
    <rect width="1920" height="1080" fill="url(#g)"/>${beams}${dots}
    <ellipse cx="960" cy="1080" rx="900" ry="160" fill="black" opacity="0.35"/>
  </svg>`;
}

async function seedCover(contestId: number, demo: DemoContest, seed: number) {
  const existing = db()
    .select({ id: mediaItems.id })
    .from(mediaItems)
    .where(eq(mediaItems.contestId, contestId))
    .get();
  if (existing) return;
  const store = await fileStore();
  fs.mkdirSync(store.scratchDir(), { recursive: true });
  const storedName = newStoredName("cover", "jpg");
  const file = path.join(store.scratchDir(), `seed-${storedName}`);
  const info = await sharp(Buffer.from(coverSvg(demo.hues, seed)))
    .jpeg({ quality: 85 })
    .toFile(file);
  await writeCoverVariants(storedName, file);
  await store.putFile(storedName, file, "image/jpeg", "public");
  db()
    .insert(mediaItems)
    .values({
      contestId,
      storedName,
      originalName: "cover.jpg",
      category: "cover-image",
      mediaType: "image",
      contentType: "image/jpeg",
      size: info.size,
      width: info.width,
      height: info.height,
    })
    .run();
}

async function seedContest(demo: DemoContest, index: number) {
  const found = db().select({ id: contests.id }).from(contests).where(eq(contests.name, demo.name)).get();
  const contestId = found?.id ?? createContest(demo.name);
  if (!found) {
    db()
      .update(contests)
      .set({
        bibNumberLabel: demo.bibNumberLabel,
        date: demo.date,
        location: demo.location,
        videoPublished: demo.published,
        sitePublicStatus: demo.published ? "公開" : "非公開",
      })
      .where(eq(contests.id, contestId))
      .run();
    db()
      .update(priceDescriptions)
      .set({
        items: [
          { name: "縦型動画（スマートフォン向け）", price: "1人 3,000円〜" },
          { name: "横型動画（テレビ・パソコン向け）", price: "1人 4,500円〜" },
        ],
        notes: "価格はすべて税込です。演技・出場シーンを個別に編集してお届けします。",
      })
      .where(eq(priceDescriptions.contestId, contestId))
      .run();
    db()
      .insert(categories)
      .values(
        demo.categories.map((name, i) => ({
          contestId,
          name,
          color: PALETTE[(i + index) % PALETTE.length] ?? "#3b82f6",
        })),
      )
      .run();
    db()
      .insert(athletes)
      .values(
        Array.from({ length: demo.athleteCount }, (_, i) => ({
          contestId,
          athleteNumber: i + 1,
          name: `${FAMILY[(i + index) % FAMILY.length]} ${GIVEN[(i * 5 + index) % GIVEN.length]}`,
          category: demo.categories[i % demo.categories.length] ?? "",
          videoStatus: i % 10 === 9 ? ("受注停止" as const) : ("販売中" as const),
          photoStatus: "確認中" as const,
          verticalVideoPrice: 3000 + (i % 3) * 500,
          horizontalVideoPrice: 4500 + (i % 3) * 500,
        })),
      )
      .run();
  }
  await seedCover(contestId, demo, index + 1);
}

type DemoAdmin = { email: string; password: string };

/** The demo admin's password is random, chosen once and kept beside the database so every run prints the same. */
async function seedAdmin(): Promise<DemoAdmin> {
  const credentialsFile = path.join(path.dirname(path.resolve(env().DATABASE_PATH)), "demo-admin.json");
  let admin: DemoAdmin;
  if (fs.existsSync(credentialsFile)) {
    admin = JSON.parse(fs.readFileSync(credentialsFile, "utf8")) as DemoAdmin;
  } else {
    admin = { email: "admin@example.jp", password: `Demo-${crypto.randomBytes(9).toString("base64url")}` };
    fs.writeFileSync(credentialsFile, JSON.stringify(admin, null, 2), { mode: 0o600 });
  }
  const existing = db().select({ id: users.id }).from(users).where(eq(users.email, admin.email)).get();
  if (!existing) {
    db()
      .insert(users)
      .values({
        email: admin.email,
        name: "デモ管理者",
        passwordHash: await hashPassword(admin.password),
        isAdmin: true,
      })
      .run();
  }
  return admin;
}

export async function seedDemo(): Promise<DemoAdmin> {
  for (const [index, demo] of DEMO_CONTESTS.entries()) await seedContest(demo, index);
  return seedAdmin();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const admin = await seedDemo();
  console.log(`デモデータを用意しました（${env().DATABASE_PATH}）`);
  console.log(`管理者ログイン: ${admin.email} / ${admin.password}`);
}
