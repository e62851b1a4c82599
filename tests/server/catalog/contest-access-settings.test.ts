import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createContest } from "~/server/catalog/contests.server";
import { db } from "~/server/db/client.server";
import { contests } from "~/server/db/schema";
import { callRoute } from "../../helpers/route";
import { adminCookie, formRequest } from "../../helpers/shop";

const settingsRoute = () => import("~/routes/admin/contest/settings");

let cookie = "";
beforeAll(async () => {
  cookie = await adminCookie();
});

const newContest = () => createContest(`合言葉設定の大会${Math.random().toString(36).slice(2, 8)}`);
const contestRow = (id: number) => db().select().from(contests).where(eq(contests.id, id)).get()!;

type Reply = {
  intent: string;
  reply: { error?: Record<string, string[]>; initialValue?: Record<string, unknown> };
};

async function postAccess(contestId: number, fields: [string, string][], sentCookie = cookie) {
  const { action } = await settingsRoute();
  return callRoute(
    action,
    formRequest(`/admin/contest/${contestId}/settings`, [["intent", "access"], ...fields], sentCookie),
    { id: String(contestId) },
  );
}

describe("大会設定's 合言葉と選手名 form", () => {
  it("is for admins only", async () => {
    const id = newContest();
    const result = await postAccess(id, [["accessCode", "sakura2026"]], "");
    expect(result.status).toBe(302);
    expect(contestRow(id).accessCode).toBeNull();
  });

  it("refuses a short code with 400 beside the field and keeps what was typed", async () => {
    const id = newContest();
    const result = await postAccess(id, [
      ["accessCode", " abc "],
      ["namesHidden", "on"],
    ]);
    expect(result.status).toBe(400);
    const data = result.data as Reply;
    expect(data.intent).toBe("access");
    expect(data.reply.error?.accessCode).toEqual(["合言葉は6〜32文字で入力してください"]);
    expect(data.reply.initialValue).toMatchObject({ accessCode: " abc ", namesHidden: "on" });
    expect(contestRow(id)).toMatchObject({ accessCode: null, namesHidden: false });
  });

  it("stores the code as typed (trimmed) so it can be read back, and the numbers-only choice", async () => {
    const id = newContest();
    const saved = await postAccess(id, [
      ["accessCode", "  Sakura-2026 "],
      ["namesHidden", "on"],
    ]);
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(`/admin/contest/${id}/settings#access`);
    expect(contestRow(id)).toMatchObject({ accessCode: "Sakura-2026", namesHidden: true });
    const { loader } = await settingsRoute();
    const page = await callRoute(
      loader,
      new Request(`http://shop.test/admin/contest/${id}/settings`, {
        headers: { Cookie: cookie },
      }),
      { id: String(id) },
    );
    expect((page.data as { contest: { accessCode: string; namesHidden: boolean } }).contest).toMatchObject({
      accessCode: "Sakura-2026",
      namesHidden: true,
    });
  });

  it("removes the code when the field is emptied, and shows names again when unticked", async () => {
    const id = newContest();
    await postAccess(id, [
      ["accessCode", "sakura2026"],
      ["namesHidden", "on"],
    ]);
    const cleared = await postAccess(id, [["accessCode", ""]]);
    expect(cleared.status).toBe(303);
    expect(contestRow(id)).toMatchObject({ accessCode: null, namesHidden: false });
  });
});
