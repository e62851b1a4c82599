import { Elements, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";
import { loadStripe, type Stripe } from "@stripe/stripe-js";
import { useMemo, useState, type FormEvent } from "react";
import { formatYen } from "~/lib/rules/format";

/**
 * Stripe's Payment Element (card with 3-D Secure, and konbini). Loaded only on the payment page, and
 * only when Stripe is configured, so other pages never carry the card provider's script.
 */
export default function StripeCardForm({
  clientSecret,
  publishableKey,
  returnUrl,
  total,
}: {
  clientSecret: string;
  publishableKey: string;
  returnUrl: string;
  total: number;
}) {
  const stripePromise = useMemo<Promise<Stripe | null>>(() => loadStripe(publishableKey), [publishableKey]);
  if (!clientSecret) return <p className="mt-3 text-zinc-600">お支払いの準備中です...</p>;
  return (
    <Elements
      stripe={stripePromise}
      options={{
        clientSecret,
        locale: "ja",
        appearance: { theme: "stripe", variables: { colorPrimary: "#c8102e" } },
      }}
    >
      <CardForm returnUrl={returnUrl} total={total} />
    </Elements>
  );
}

function CardForm({ returnUrl, total }: { returnUrl: string; total: number }) {
  const stripe = useStripe();
  const elements = useElements();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!stripe || !elements) return;
    setBusy(true);
    setError(null);
    const result = await stripe.confirmPayment({
      elements,
      confirmParams: { return_url: returnUrl },
      redirect: "if_required",
    });
    if (result.error) {
      setError(`決済エラー: ${result.error.message ?? "決済処理中にエラーが発生しました"}`);
      setBusy(false);
      return;
    }
    // No redirect was needed (a card without 3-D Secure, or konbini once its voucher was shown):
    // the server asks Stripe what happened, as after a redirect.
    window.location.assign(`${returnUrl}?payment_intent=${encodeURIComponent(result.paymentIntent.id)}`);
  }

  return (
    <form
      onSubmit={onSubmit}
      className="mt-3 space-y-4 rounded-2xl border border-zinc-200 bg-white p-5 shadow-sm"
    >
      <PaymentElement />
      {error ? (
        <p role="alert" className="font-medium text-red-700">
          {error}
        </p>
      ) : null}
      <button type="submit" className="btn-primary w-full text-lg" disabled={!stripe || busy}>
        {busy ? "決済処理中..." : `${formatYen(total)}を支払う`}
      </button>
    </form>
  );
}
