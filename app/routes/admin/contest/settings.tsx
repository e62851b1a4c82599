import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { requireAdminPage } from "~/server/auth/admin-session.server";
import { requireEditableContest } from "~/server/catalog/contest-editing.server";
import { settingsTabPage, settingsTabStep } from "~/server/catalog/contest-settings-tab.server";
import { readForm } from "~/server/http/form.server";
import { redirectWithToast } from "~/server/http/toast.server";
import { PROMOTIONS_INTENT } from "~/lib/schemas/promotion-schemas";
import { promotionSettingsPage, savePromotionSettings } from "~/server/promotions/promotion-settings.server";
import { AccessSection } from "./settings/AccessSection";
import { BasicInfoSection } from "./settings/BasicInfoSection";
import { CategoriesSection } from "./settings/CategoriesSection";
import { FlyerSection } from "./settings/FlyerSection";
import { FormatsSection } from "./settings/FormatsSection";
import { PriceDescriptionSection } from "./settings/PriceDescriptionSection";
import { PromotionsSection } from "./settings/PromotionsSection";
import { PublicationSection } from "./settings/PublicationSection";

export const meta: MetaFunction = () => [{ title: "大会設定 | 管理画面" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdminPage(request);
  const contest = requireEditableContest(params);
  return { ...settingsTabPage(contest), promotions: promotionSettingsPage(contest.id) };
}

/** Each form of the tab posts its own intent; success goes back to its section (PRG), a mistake stays with its field. */
export async function action({ request, params }: ActionFunctionArgs) {
  await requireAdminPage(request);
  const contest = requireEditableContest(params);
  const form = await readForm(request);
  const outcome =
    form.get("intent") === PROMOTIONS_INTENT
      ? savePromotionSettings(contest.id, form)
      : settingsTabStep(contest.id, form);
  if (!outcome.saved) return data(outcome.data, { status: outcome.status });
  return redirectWithToast(
    request,
    `/admin/contest/${contest.id}/settings#${outcome.section}`,
    { kind: "success", title: "保存しました", description: outcome.description },
    { status: 303 },
  );
}

export default function ContestSettings() {
  const loaded = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const resultFor = (intent: string, target: number | null = null) =>
    actionData && actionData.intent === intent && actionData.target === target ? actionData.reply : null;
  return (
    <div className="grid items-start gap-6 lg:grid-cols-2">
      <div className="grid gap-6">
        <BasicInfoSection contest={loaded.contest} lastResult={resultFor("basic")} />
        <PublicationSection
          key={`${loaded.contest.sitePublicStatus}-${loaded.contest.scheduledPublishDate}`}
          contest={loaded.contest}
          minScheduleInput={loaded.minScheduleInput}
          lastResult={resultFor("publication")}
        />
        <AccessSection
          key={`${loaded.contest.accessCode}\n${loaded.contest.namesHidden}`}
          contest={loaded.contest}
          lastResult={resultFor("access")}
        />
        <FlyerSection contestId={loaded.contest.id} hasAccessCode={loaded.contest.accessCode !== ""} />
        <PriceDescriptionSection
          key={JSON.stringify(loaded.priceDescription)}
          description={loaded.priceDescription}
          lastResult={resultFor("price")}
        />
        <PromotionsSection
          key={JSON.stringify(loaded.promotions.values)}
          promotions={loaded.promotions}
          lastResult={resultFor(PROMOTIONS_INTENT)}
        />
      </div>
      <div className="grid gap-6">
        <CategoriesSection
          categories={loaded.categories}
          lastResult={resultFor("category-add")}
          deleteResult={resultFor("category-delete")}
        />
        <FormatsSection
          formats={loaded.formats}
          addResult={resultFor("format-add")}
          listResult={resultFor("format-delete") ?? resultFor("format-move")}
          renameResult={(id) => resultFor("format-rename", id)}
        />
      </div>
    </div>
  );
}
