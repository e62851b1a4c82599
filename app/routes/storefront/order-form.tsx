import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { formatYen } from "~/lib/rules/format";
import { numberLabelOf } from "~/lib/rules/number-label";
import { MAX_ORDER_ITEMS } from "~/lib/rules/pricing";
import { useDeferredValidation } from "~/lib/hooks/use-deferred-validation";
import { handleOrderForm, orderFormContest, orderFormPage } from "~/server/checkout/order-form.server";
import { commitSession, getSession } from "~/server/http/session.server";
import { readForm } from "~/server/http/form.server";
import { FormError } from "~/components/form-messages";
import { FieldLabel } from "~/components/field-label";
import { contestSamples } from "~/server/media/public-catalogue.server";
import { contestOpen, enterAccessCode } from "~/server/catalog/contest-access.server";
import { retryAfterHeaders } from "~/server/http/rate-limit.server";
import { ACCESS_CODE_INTENT } from "~/lib/rules/access-code";
import { AccessCodeForm } from "./AccessCodeForm";
import { styleNamesOf } from "~/lib/rules/promotion-notices";
import { ContestSamples } from "./ContestSamples";
import {
  LinePrice,
  OrderDiscounts,
  OrderTotal,
  PromotionNotes,
  useAthletePrices,
  useOrderFormPricing,
  usePricingTime,
} from "./OrderFormPrices";
import { useIsPending } from "~/lib/hooks/use-is-pending";
import { useCheckedSubmit } from "~/lib/hooks/use-checked-submit";
import { useOrderFormChoices } from "./order-form-choices";
import { OrderFormHeading } from "./OrderFormHeading";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.contest.name ?? "ご注文"} | 注文フォーム | コンテスト動画ショップ` },
  // A contest's page lists its athletes: no search engine keeps it (robots.txt says so too).
  { name: "robots", content: "noindex" },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const contest = orderFormContest(params.contestSlug ?? "");
  const session = await getSession(request);
  // Behind a 合言葉 not yet entered: the name only, nothing of the athletes or samples.
  if (!contestOpen(session, contest))
    return data({ locked: true as const, contest: { id: contest.id, name: contest.name } }, { status: 403 });
  return {
    locked: false as const,
    contest: { id: contest.id, name: contest.name, bibNumberLabel: numberLabelOf(contest) },
    ...orderFormPage(session, contest),
    samples: contestSamples(contest.id),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const contest = orderFormContest(params.contestSlug ?? "");
  const session = await getSession(request);
  const form = await readForm(request);
  // The code's form, and every post to a form not yet opened (a draft saved without the code is refused).
  if (form.get("intent") === ACCESS_CODE_INTENT || !contestOpen(session, contest)) {
    const entry = enterAccessCode(session, request, contest, form);
    if (entry.ok)
      return redirect(new URL(request.url).pathname, {
        status: 303,
        headers: { "Set-Cookie": await commitSession(session) },
      });
    return data(
      { reply: entry.reply, items: null },
      { status: entry.status, headers: retryAfterHeaders(entry) },
    );
  }
  const outcome = handleOrderForm(session, contest, form, request);
  const headers = { "Set-Cookie": await commitSession(session) };
  if (outcome.kind === "reload") return redirect(new URL(request.url).pathname, { headers });
  if (outcome.kind === "confirm") return redirect("/order-confirmation", { headers });
  if (outcome.kind === "refused")
    return data({ reply: outcome.reply, items: outcome.items }, { status: outcome.status, headers });
  return data({ reply: outcome.reply, items: null }, { status: outcome.status, headers });
}

export default function OrderFormPage() {
  const loaded = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  if (loaded.locked)
    return <AccessCodeForm contestName={loaded.contest.name} lastResult={actionData?.reply} />;
  return <OrderForm />;
}

/** The page's data once the contest is open (OrderForm is drawn only then). */
function useOpenOrderForm() {
  const loaded = useLoaderData<typeof loader>();
  if (loaded.locked) throw new Error("the order form is drawn only for an opened contest");
  return loaded;
}

function OrderForm() {
  const loaded = useOpenOrderForm();
  const { contest, options, draftVersion, priceDescription, promotions } = loaded;
  const actionData = useActionData<typeof action>();
  const lastResult = actionData?.reply;
  // A refused post saved nothing: the form shows what was sent, so no choice is lost.
  const refused = actionData?.items ?? null;
  const { formRef, draft, formKey, live, onChange } = useOrderFormChoices({
    contestId: contest.id,
    serverDraft: loaded.draft,
    draftVersion,
    refused,
  });
  const busy = useIsPending();
  const validation = useDeferredValidation("orderForm");
  // Checked at submit only: the items are drawn from the server's draft, so the page needs the
  // errors of a post and nothing more of a form library (see useCheckedSubmit).
  const { form, errorsOf } = useCheckedSubmit({
    id: `order-form-${formKey}`,
    lastResult: busy ? null : lastResult,
    check: validation.validate,
  });
  const itemCount = draft.length;
  // A preview by the server's own rule at the server's time: the server prices the order again
  // at each step from the athletes' current prices and the promotions then running.
  const pricedAt = usePricingTime(loaded.pricedAt, promotions);
  const { pricing, lineAt } = useOrderFormPricing(options, live, promotions, pricedAt);
  // Each athlete's prices, said under the number list for the chosen one (the list itself holds
  // number and name only: with the prices, a phone cut the chosen entry mid-price).
  const athletePrices = useAthletePrices(options, promotions, pricedAt);

  return (
    <div className="mx-auto max-w-3xl px-4 py-6 sm:py-10">
      <OrderFormHeading contestName={contest.name} />
      <p className="mt-1 text-zinc-600">ご希望の動画を選んでください。価格はすべて税込です。</p>

      {priceDescription && (priceDescription.items.length > 0 || priceDescription.notes) ? (
        <section aria-label="価格のご案内" className="mt-5 rounded-xl border border-zinc-200 bg-white p-4">
          <h2 className="font-semibold">価格のご案内</h2>
          <ul className="mt-2 space-y-1 text-sm">
            {priceDescription.items.map((item, index) => (
              <li key={index} className="flex justify-between gap-4">
                <span>{item.name}</span>
                <span className="shrink-0 font-medium whitespace-nowrap">
                  {/^\d+$/.test(item.price) ? formatYen(Number(item.price)) : item.price}
                </span>
              </li>
            ))}
          </ul>
          {priceDescription.notes ? (
            <p className="mt-2 text-xs text-zinc-500">{priceDescription.notes}</p>
          ) : null}
        </section>
      ) : null}

      <PromotionNotes promotions={promotions} at={pricedAt} styles={styleNamesOf(options.formats)} />

      <ContestSamples samples={loaded.samples} contestName={contest.name} />

      <Form
        method="post"
        {...form.props}
        onFocus={validation.load}
        key={formKey}
        ref={formRef}
        className="mt-6 space-y-4"
        onChange={onChange}
      >
        <FormError id={form.errorId} errors={form.errors} />
        <FormError errors={errorsOf("items")} />

        {draft.map((item, index) => {
          const current = live[index] ?? item;
          const errors = ["category", "athleteId", "formatId"].flatMap(
            (name) => errorsOf(`items[${index}].${name}`) ?? [],
          );
          const hasError = errors.length > 0;
          const athletes = current.category
            ? options.athletes.filter((a) => a.category === current.category)
            : options.athletes;
          const categoriesWithAthletes = options.categories.filter((name) =>
            athletes.some((a) => a.category === name),
          );
          const chosen = athletes.find((a) => a.id === current.athleteId);
          const chosenPrices = chosen ? athletePrices.get(chosen.id) : undefined;
          return (
            <fieldset
              key={index}
              className="rounded-xl border border-zinc-200 bg-white p-4 shadow-sm"
              aria-invalid={hasError || undefined}
            >
              <legend className="sr-only">商品{index + 1}</legend>
              <div className="flex items-center justify-between">
                <p aria-hidden="true" className="font-semibold">
                  商品{index + 1}
                </p>
                <button
                  type="submit"
                  name="intent"
                  value={`remove-${index}`}
                  formNoValidate
                  className="rounded-lg px-3 py-1.5 text-sm text-zinc-600 hover:bg-zinc-100"
                  aria-label={`商品${index + 1}を削除`}
                >
                  削除
                </button>
              </div>
              <div className="mt-3 grid gap-4 sm:grid-cols-2">
                <div>
                  <FieldLabel htmlFor={`item-${index}-category`}>部門</FieldLabel>
                  <select
                    id={`item-${index}-category`}
                    name={`items[${index}].category`}
                    defaultValue={item.category}
                    className="field-input"
                  >
                    <option value="">選択してください</option>
                    {options.categories.map((name) => (
                      <option key={name} value={name}>
                        {name}
                      </option>
                    ))}
                  </select>
                </div>
                <div>
                  <FieldLabel htmlFor={`item-${index}-athlete`}>{contest.bibNumberLabel}</FieldLabel>
                  <select
                    id={`item-${index}-athlete`}
                    name={`items[${index}].athleteId`}
                    defaultValue={item.athleteId ?? ""}
                    className="field-input"
                    aria-describedby={chosenPrices ? `item-${index}-athlete-prices` : undefined}
                  >
                    <option value="">選択してください</option>
                    {categoriesWithAthletes.map((name) => (
                      <optgroup key={name} label={name}>
                        {athletes
                          .filter((a) => a.category === name)
                          .map((a) => (
                            <option key={a.id} value={a.id}>
                              {a.name ? `${a.number} ${a.name}` : String(a.number)}
                            </option>
                          ))}
                      </optgroup>
                    ))}
                  </select>
                  {chosenPrices ? (
                    <p id={`item-${index}-athlete-prices`} className="mt-1 text-sm text-zinc-600">
                      {chosenPrices}
                    </p>
                  ) : null}
                </div>
              </div>
              <div className="mt-4" role="radiogroup" aria-labelledby={`item-${index}-style-label`}>
                <FieldLabel id={`item-${index}-style-label`}>動画スタイル</FieldLabel>
                <div className="grid grid-cols-2 gap-3">
                  {options.formats.map((format) => (
                    <label
                      key={format.id}
                      className="flex min-h-11 cursor-pointer items-center gap-2 rounded-lg border border-zinc-300 px-3 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
                    >
                      <input
                        type="radio"
                        name={`items[${index}].formatId`}
                        value={format.id}
                        defaultChecked={item.formatId === format.id}
                        className="h-4 w-4 accent-brand-600"
                      />
                      <span>{format.name}</span>
                    </label>
                  ))}
                </div>
              </div>
              {hasError ? (
                <p role="alert" className="field-error">
                  {errors[0]}
                </p>
              ) : null}
              <LinePrice line={lineAt(index)} />
            </fieldset>
          );
        })}

        <div className="flex gap-3">
          <button
            type="submit"
            name="intent"
            value="add"
            formNoValidate
            className="btn-secondary flex-1"
            disabled={busy || itemCount >= MAX_ORDER_ITEMS}
          >
            ＋ 商品を追加
          </button>
          {/* Without JS a choice posts nothing: this saves the choices and the page comes back priced. */}
          <button
            type="submit"
            name="intent"
            value="price"
            formNoValidate
            className="js-hidden btn-secondary flex-1"
          >
            金額を計算する
          </button>
        </div>
        <p className="js-hidden text-sm text-zinc-600">
          選んだ内容の価格と合計は「金額を計算する」を押すと表示されます。
        </p>

        <OrderDiscounts pricing={pricing} />

        <div className="sticky bottom-0 -mx-4 border-t border-zinc-200 bg-white/95 px-4 py-4 backdrop-blur sm:static sm:mx-0 sm:rounded-xl sm:border">
          <OrderTotal pricing={pricing} />
          <button
            type="submit"
            name="intent"
            value="next"
            className="mt-3 btn-primary w-full"
            disabled={busy}
          >
            注文内容の確認へ進む
          </button>
        </div>
      </Form>
    </div>
  );
}
