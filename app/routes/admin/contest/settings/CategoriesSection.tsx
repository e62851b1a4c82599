import { getFormProps } from "@conform-to/react";
import { Form, useNavigation } from "@remix-run/react";
import { FormError } from "~/components/form-messages";
import { FieldLabel } from "~/components/forms";
import { useIsPending } from "~/lib/hooks/use-is-pending";
import { useShopForm } from "~/lib/hooks/use-shop-form";
import { categoryAddSchema } from "~/lib/schemas/contest-settings-schemas";
import { validateWith } from "~/lib/schemas/validate-with";
import { IntentButton, NameInputRow } from "./setting-forms";
import { replyFormErrors, SettingsSection, type SettingsReply } from "./SettingsSection";

type CategoryRow = { id: number; name: string; color: string; athletes: number };

/** 部門: the contest's categories with their athlete counts, each deletable, and a form to add one. */
export function CategoriesSection({
  categories,
  lastResult,
  deleteResult,
}: {
  categories: CategoryRow[];
  lastResult: SettingsReply;
  deleteResult: SettingsReply;
}) {
  const [form, fields] = useShopForm({
    id: "category-add",
    lastResult,
    shouldValidate: "onSubmit",
    onValidate: validateWith(categoryAddSchema),
  });
  // Which row is on its way out: marked busy until the page comes back without it.
  const navigation = useNavigation();
  const deletingId =
    navigation.formData?.get("intent") === "category-delete" ? navigation.formData.get("categoryId") : null;
  const busy = useIsPending({ intent: "category-add" });
  return (
    <SettingsSection
      id="categories"
      title="部門"
      description="部門を削除すると、その部門の選手は「未分類」になります（選手は削除されません）。"
    >
      <div className="mb-3 empty:hidden">
        <FormError errors={replyFormErrors(deleteResult)} />
      </div>
      {categories.length === 0 ? (
        <p className="rounded-lg border border-dashed border-zinc-300 px-4 py-6 text-center text-sm text-zinc-600">
          部門はまだありません
        </p>
      ) : (
        <ul aria-label="部門の一覧" className="divide-y divide-zinc-100 rounded-lg border border-zinc-200">
          {categories.map((category) => (
            <li
              key={category.id}
              className="flex items-center gap-3 px-3 py-2"
              aria-busy={String(category.id) === deletingId || undefined}
            >
              <span
                aria-hidden="true"
                className="h-5 w-5 shrink-0 rounded-full border border-black/10"
                style={{ backgroundColor: category.color }}
              />
              <span className="min-w-0 flex-1 font-medium break-words">{category.name}</span>
              <span className="shrink-0 text-xs text-zinc-500">選手{category.athletes}人</span>
              <IntentButton
                intent="category-delete"
                values={{ categoryId: category.id }}
                label={`部門「${category.name}」を削除`}
                className="rounded-lg border border-red-300 px-3 py-1.5 text-sm text-red-700 hover:bg-red-50"
              >
                削除
              </IntentButton>
            </li>
          ))}
        </ul>
      )}
      <Form method="post" {...getFormProps(form)} key={`add-${categories.length}`} className="mt-4">
        <input type="hidden" name="intent" value="category-add" />
        <FieldLabel htmlFor={fields.name.id}>新しい部門名</FieldLabel>
        <NameInputRow meta={fields.name} placeholder="例: 小学生の部">
          <button type="submit" className="btn-secondary shrink-0" disabled={busy}>
            部門を追加
          </button>
        </NameInputRow>
      </Form>
    </SettingsSection>
  );
}
