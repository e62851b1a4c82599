// A contest's set-up and its deliveries through the shop's JSON API (docs/api.md), as a shop's
// admin might script them. Node 20 or later, nothing to install: it uses Node's own fetch.
//
//   SHOP=https://shop.example.jp TOKEN=cvs_… node docs/examples/contest-setup.mjs setup "大会名"
//   SHOP=https://shop.example.jp TOKEN=cvs_… node docs/examples/contest-setup.mjs deliver "大会名" \
//     "https://videos.example.jp/{contest}/{athleteNumber}-{style}.mp4"
//
// TOKEN is a read-write API token (セキュリティ監視 → APIトークン). `setup` makes the contest with
// its categories, video formats, price description and 50 athletes, and puts it on sale. `deliver`
// delivers every paid order of the contest not delivered yet, with one download URL per order
// line made from the template; run it again after new orders: delivered orders are left alone.

const CATEGORIES = ["キッズ部門", "ジュニア部門", "一般部門"];
const FORMATS = ["縦", "横"]; // the first is sold at an athlete's 縦 price, the second at the 横 price
const ATHLETES = 50;
const PRICES = { verticalVideoPrice: 3000, horizontalVideoPrice: 4500 }; // yen, tax included

const { SHOP, TOKEN } = process.env;

/** One call; a refusal stops the script with the shop's own message (Japanese) and field messages. */
async function api(method, path, body) {
  const response = await fetch(`${SHOP}${path}`, {
    method,
    headers: { Authorization: `Bearer ${TOKEN}`, ...(body && { "Content-Type": "application/json" }) },
    body: body && JSON.stringify(body),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(`${method} ${path}`, response.status, answer);
  return answer;
}

class ApiError extends Error {
  constructor(call, status, answer) {
    super(`${call}: ${status} ${answer.message ?? answer.error ?? ""}`);
    this.fields = answer.fields;
  }
}

async function setup(name) {
  const contest = await api("POST", "/api/video/contests", { name });
  const base = `/api/video/contests/${contest.id}`;

  for (const category of CATEGORIES) await api("POST", `${base}/categories`, { name: category });

  // A new contest already has 縦 and 横; add whichever of ours it lacks.
  const formats = await api("GET", `${base}/video-formats`);
  for (const format of FORMATS)
    if (!formats.some((each) => each.name === format))
      await api("POST", `${base}/video-formats`, { name: format });

  await api("PUT", `${base}/price-description`, {
    items: [
      { name: "縦型動画", price: PRICES.verticalVideoPrice },
      { name: "横型動画", price: PRICES.horizontalVideoPrice },
    ],
    notes: "価格は税込です。",
  });

  // Numbers 1–50, dealt over the categories in turn (1 キッズ, 2 ジュニア, 3 一般, 4 キッズ, …).
  const athleteIds = [];
  for (let number = 1; number <= ATHLETES; number++) {
    const athlete = await api("POST", `${base}/athletes`, {
      athleteNumber: number,
      name: `選手${number}`,
      category: CATEGORIES[(number - 1) % CATEGORIES.length],
      ...PRICES,
    });
    athleteIds.push(athlete.id);
  }

  // On sale: the athletes (the bulk bar's 販売中), then the contest (大会設定's 公開).
  await api("PATCH", "/api/video/athletes/bulk-update", { athleteIds, updates: { videoStatus: "販売中" } });
  const onSale = await api("PATCH", base, { sitePublicStatus: "公開" });

  console.log(`大会「${onSale.name}」(id ${onSale.id}) を作成し、公開しました: ${onSale.sitePublicStatus}`);
  console.log(`  部門: ${CATEGORIES.join("、")}`);
  console.log(`  動画形式: ${(await api("GET", `${base}/video-formats`)).map((f) => f.name).join("、")}`);
  console.log(`  選手: ${athleteIds.length}人 (番号1〜${ATHLETES}、販売中)`);
}

async function deliver(name, template) {
  const contest = (await api("GET", "/api/video/contests")).find((each) => each.name === name);
  if (!contest) throw new Error(`大会「${name}」が見つかりません`);

  // Every line of the contest's orders still to deliver (未対応), page by page, before delivering
  // any: each delivery moves an order off this list, which would shift the pages.
  const lines = [];
  for (let page = 1, pages = 1; page <= pages; page++) {
    const list = await api("GET", `/api/video/orders?tab=pending&contest=${contest.id}&page=${page}`);
    lines.push(...list.orderLines.filter((line) => line.paymentStatus === "paid"));
    pages = list.pages;
  }

  // Lines by their order ("12345678-2" is line 2 of order 12345678).
  const orders = new Map();
  for (const line of lines) {
    const orderNumber = line.orderNumber.replace(/-\d+$/, "");
    orders.set(orderNumber, [...(orders.get(orderNumber) ?? []), line]);
  }
  if (orders.size === 0) console.log(`大会「${name}」に納品待ちの注文はありません`);

  for (const [orderNumber, orderLines] of orders) {
    const downloadUrls = {};
    // A line marked お断り (refused) is not filmed: it needs no URL.
    for (const line of orderLines.filter((each) => !each.refused))
      downloadUrls[line.id] = urlFor(template, contest, line);
    if (Object.keys(downloadUrls).length === 0) {
      console.log(
        `${orderNumber}: すべてお断りのため納品しません (注文一覧の「完了」で対応済みにしてください)`,
      );
      continue;
    }
    const result = await api("POST", `/api/orders/${orderNumber}/deliver`, { downloadUrls });
    console.log(
      `${orderNumber}: 納品しました (${Object.keys(downloadUrls).length}本)` +
        ` customerEmailSent=${result.customerEmailSent}`,
    );
  }
}

/** The template's {contest}, {contestId}, {orderNumber}, {category}, {athleteNumber} and {style}, URL-encoded. */
function urlFor(template, contest, line) {
  const values = {
    contest: contest.name,
    contestId: contest.id,
    orderNumber: line.orderNumber,
    category: line.category,
    athleteNumber: line.athleteNumber,
    style: line.style,
  };
  return template.replace(/\{(\w+)\}/g, (placeholder, key) =>
    key in values ? encodeURIComponent(String(values[key])) : placeholder,
  );
}

const [command, name, template] = process.argv.slice(2);
const usage = !SHOP || !TOKEN || !name || (command === "deliver" ? !template : command !== "setup");
if (usage) {
  console.error('使い方: SHOP=… TOKEN=… node contest-setup.mjs setup "大会名"');
  console.error(
    '        SHOP=… TOKEN=… node contest-setup.mjs deliver "大会名" "https://…/{athleteNumber}-{style}.mp4"',
  );
  process.exit(2);
}
try {
  await (command === "setup" ? setup(name) : deliver(name, template));
} catch (error) {
  console.error(`エラー: ${error.message}`);
  for (const [field, messages] of Object.entries(error.fields ?? {}))
    console.error(`  ${field}: ${messages.join(" ")}`);
  process.exit(1);
}
