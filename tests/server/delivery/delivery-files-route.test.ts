import fs from "node:fs";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { action, loader } from "~/routes/admin/contest/delivery";
import { db } from "~/server/db/client.server";
import { deliveryFiles, orderLines, orders } from "~/server/db/schema";
import { deliverContest } from "~/server/delivery/batch-delivery.server";
import { deliveryScreen } from "~/server/delivery/delivery-screen.server";
import { getSession } from "~/server/http/session.server";
import { notPlayableMessage } from "~/server/media/probe.server";
import { UPLOAD_MESSAGES } from "~/lib/schemas/media-schemas";
import { mediaDir } from "../../helpers/media-dir";
import { createUser } from "../../helpers/accounts";
import { callRoute } from "../../helpers/route";
import { adminCookie, formRequest, seedContest, sessionCookie } from "../../helpers/shop";
import { videoBytes } from "../../helpers/test-videos";

let admin = "";
let shop: ReturnType<typeof seedContest>;

beforeAll(async () => {
  admin = await adminCookie();
  shop = seedContest();
});

const page = () => `/admin/contest/${shop.contestId}/delivery`;
const params = () => ({ id: String(shop.contestId) });

/** A real video, its bytes its own for each seed. */
const mp4 = (seed: string) => videoBytes(undefined, seed);

function uploadRequest(files: [string, Uint8Array][], cookie = admin, query = "?intent=upload") {
  const body = new FormData();
  for (const [name, bytes] of files) body.append("files", new Blob([new Uint8Array(bytes)]), name);
  return new Request(`http://shop.test${page()}${query}`, {
    method: "POST",
    body,
    headers: { Cookie: cookie },
  });
}

const storedNames = () =>
  new Set(
    db()
      .select()
      .from(deliveryFiles)
      .all()
      .map((file) => file.storedName),
  );
const diskNames = () => (fs.existsSync(mediaDir()) ? fs.readdirSync(mediaDir()) : []);

function paidOrder(athleteId: number, athleteNumber: number) {
  const orderNumber = String(40_000_000 + Math.floor(Math.random() * 1_000_000));
  const order = db()
    .insert(orders)
    .values({
      orderNumber,
      checkoutId: `route-${orderNumber}`,
      paymentIntentId: `pi-route-${orderNumber}`,
      contestId: shop.contestId,
      contestName: shop.name,
      customerEmail: "route-family@example.jp",
      customerName: "経路 家族",
      totalAmount: 3000,
      lineCount: 1,
    })
    .returning()
    .get();
  db()
    .insert(orderLines)
    .values({
      orderId: order.id,
      lineNumber: `${orderNumber}-1`,
      contestName: shop.name,
      category: "A部門",
      athleteId,
      athleteNumber,
      athleteName: `選手${athleteNumber}`,
      style: "縦",
      orientation: "vertical",
      price: 3000,
    })
    .run();
  return order;
}

describe("the 納品ファイル tab", () => {
  it("refuses a visitor and a customer before reading the upload: nothing is written", async () => {
    const before = diskNames().length;
    const customer = await createUser("not-admin@example.jp", "Not-Admin-2025");
    for (const cookie of ["", await sessionCookie({ userId: customer.id })]) {
      const result = await callRoute(action, uploadRequest([["1_縦.mp4", mp4("visitor")]], cookie), params());
      expect(result.status).toBe(302);
      expect(result.location).toMatch(/^\/admin-login/);
      const read = await callRoute(
        loader,
        new Request(`http://shop.test${page()}`, { headers: { Cookie: cookie } }),
        params(),
      );
      expect(read.status).toBe(302);
    }
    expect(diskNames().length).toBe(before);
  });

  it("the plain form stores every video it is sent and names the file that is not one, with why", async () => {
    const before = storedNames();
    const result = await callRoute(
      action,
      uploadRequest([
        ["1_縦.mp4", mp4("1_縦")],
        ["メモ.txt", new TextEncoder().encode("not a video")],
        ["2_横.mp4", mp4("2_横")],
      ]),
      params(),
    );
    expect(result.status).toBe(303);
    const added = db()
      .select()
      .from(deliveryFiles)
      .all()
      .filter((file) => !before.has(file.storedName));
    expect(added.map((file) => file.originalName).sort()).toEqual(["1_縦.mp4", "2_横.mp4"]);
    // The toast says what the queue says with JavaScript: how many, and each refusal naming its file.
    const session = await getSession(new Request("http://shop.test/admin", { headers: { Cookie: admin } }));
    expect(session.get("toast")).toMatchObject({
      kind: "error",
      title: UPLOAD_MESSAGES.filesRefused(1),
      description: `${notPlayableMessage("メモ.txt")}（他の 2 件はアップロードしました）`,
    });
    // The refused file left nothing behind: every delivery-* file on disk has its row.
    expect(diskNames().filter((name) => name.startsWith("delivery-") && !storedNames().has(name))).toEqual(
      [],
    );
  });

  it("a number typed by hand that no athlete has is a 400 with the field's message; a bad file id is a 400, not a 500", async () => {
    const file = db().select().from(deliveryFiles).where(eq(deliveryFiles.originalName, "1_縦.mp4")).get()!;
    const wrong = await callRoute(
      action,
      formRequest(
        page(),
        [
          ["intent", "match"],
          ["fileId", String(file.id)],
          ["athleteNumber", "999"],
          ["orientation", "vertical"],
        ],
        admin,
      ),
      params(),
    );
    expect(wrong.status).toBe(400);
    expect(JSON.stringify(wrong.data)).toContain("ゼッケン番号 999 の選手がいません");
    const typo = await callRoute(
      action,
      formRequest(
        page(),
        [
          ["intent", "match"],
          ["fileId", String(file.id)],
          ["athleteNumber", "十二"],
          ["orientation", "sideways"],
        ],
        admin,
      ),
      params(),
    );
    expect(typo.status).toBe(400);
    expect(JSON.stringify(typo.data)).toContain("番号は0以上の整数で入力してください");
    for (const fields of [
      [
        ["intent", "remove"],
        ["fileId", "abc"],
      ],
      [["intent", "nonsense"]],
      [
        ["intent", "resend"],
        ["orderId", "-1"],
      ],
    ] as [string, string][][]) {
      const result = await callRoute(action, formRequest(page(), fields, admin), params());
      expect(result.status).toBe(400);
    }
  });

  it("a corrected file for a delivered video keeps its athlete and style and waits for 一括納品 to replace it", async () => {
    const order = paidOrder(shop.onSale.id, 1);
    deliverContest(shop.contestId);
    const delivered = db().select().from(orderLines).where(eq(orderLines.orderId, order.id)).get()!;
    expect(delivered.deliveryFileId).not.toBeNull();
    const result = await callRoute(
      action,
      uploadRequest(
        [["修正版.mp4", mp4("修正版")]],
        admin,
        `?intent=replace&fileId=${delivered.deliveryFileId}`,
      ),
      params(),
    );
    expect(result.status).toBe(303);
    const screen = deliveryScreen(shop.contestId)!;
    const replacement = screen.matched.find((file) => file.originalName === "修正版.mp4");
    expect(replacement).toMatchObject({
      athlete: { athleteNumber: 1 },
      orientation: "vertical",
      replaces: { fileId: delivered.deliveryFileId },
    });
    // Another contest's file id is not found, whatever the admin may do elsewhere.
    const other = seedContest();
    const foreign = await callRoute(
      action,
      uploadRequest([["x.mp4", mp4("foreign")]], admin, `?intent=replace&fileId=${delivered.deliveryFileId}`),
      { id: String(other.contestId) },
    );
    expect(foreign.status).toBe(404);
  });
});
