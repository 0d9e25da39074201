import type { BundlesResponse } from "@app/contract";
import type { FormEvent } from "react";
import { FormattedMessage } from "react-intl";
import { Link, useNavigate } from "react-router";
import { BusyButton } from "../../ui/busy-button";
import { FormAlert } from "../../ui/form-alert";
import { repeatOrder } from "./api";
import { usePrice, WithBundles } from "./bundles";
import { MethodLabel } from "./methods";
import { usePaymentAttempt } from "./use-payment-attempt";

/**
 * Buys the last bundle again on the stored card or mandate (POST /api/repeat-order.php) and opens its
 * result page; the result page knows it was a repeat order (spec §8: a failed card then offers a retry
 * and PayPal). The same attempt keeps its client_id across retries.
 */
export function useRepeatOrder(newClientId?: () => string) {
  const navigate = useNavigate();
  const attempt = usePaymentAttempt(newClientId);
  const buyAgain = (key: string) =>
    attempt.run(`repeat:${key}`, async (clientId) => {
      const { payment_id } = await repeatOrder(clientId);
      await navigate(`/transactions/${payment_id}`);
    });
  return { ...attempt, buyAgain };
}

/** /credits/repeat-order (spec §2): the last bundle and method, and one button to buy it again. */
export function RepeatOrder({ newClientId }: { newClientId?: () => string }) {
  return <WithBundles>{(data) => <RepeatOrderForm data={data} newClientId={newClientId} />}</WithBundles>;
}

function RepeatOrderForm({ data, newClientId }: { data: BundlesResponse; newClientId?: (() => string) | undefined }) {
  const price = usePrice();
  const { busy, error, formRef, buyAgain } = useRepeatOrder(newClientId);
  const order = data.repeat_order;
  if (!order) {
    return (
      <>
        <p>
          <FormattedMessage id="payments.repeat_none" />
        </p>
        <Link to="/credits" className="btn btn-primary">
          <FormattedMessage id="payments.choose_package" />
        </Link>
      </>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void buyAgain(`${order.bundle_id}`);
  };
  const amount = price(order.price, data.currency);
  return (
    <form ref={formRef} onSubmit={submit} noValidate>
      <FormAlert>{error}</FormAlert>
      <dl className="card card-body shadow-sm mb-4">
        <dt className="text-body-secondary small">
          <FormattedMessage id="payments.your_package" />
        </dt>
        <dd className="h4">
          <FormattedMessage id="payments.credits_count" values={{ credits: order.credits }} />
          {" · "}
          {amount}
        </dd>
        <dt className="text-body-secondary small">
          <FormattedMessage id="payments.method_legend" />
        </dt>
        <dd className="mb-0">
          <MethodLabel method={order.method} />
        </dd>
      </dl>
      <div className="d-flex flex-wrap gap-2 align-items-center">
        <BusyButton type="submit" size="lg" busy={busy}>
          <FormattedMessage id="payments.repeat_confirm" values={{ price: amount }} />
        </BusyButton>
        <Link to="/credits" className="btn btn-link">
          <FormattedMessage id="payments.choose_package" />
        </Link>
      </div>
    </form>
  );
}
