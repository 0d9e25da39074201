import { FAILED_PAYMENT_STATUSES, OPEN_PAYMENT_STATUSES, type Payment } from "@app/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from "react";
import { Spinner } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { Link, useLocation, useNavigate } from "react-router";
import { errorMessage } from "../../lib/form-errors";
import { useMember } from "../../lib/member";
import { useServerEvent, useServerEventsState } from "../../lib/server-events";
import { BusyButton } from "../../ui/busy-button";
import { FormAlert } from "../../ui/form-alert";
import { useToast } from "../../ui/toasts";
import { BUNDLES_KEY, bundlesQuery, paymentQuery, refundPayment, retryPayment, TRANSACTIONS_KEY } from "./api";
import { PaidAmount, QueryState, usePrice } from "./bundles";
import { useMethodName } from "./methods";
import { RefundModal } from "./refund-modal";
import { useRepeatOrder } from "./repeat-order";
import { safeCheckoutUrl } from "./safe-urls";
import { readReturnPath, returnQuery } from "./session";
import { StatusBadge } from "./status";
import { type PaymentAttempt, usePaymentAttempt } from "./use-payment-attempt";

/** Spec §4: while a payment is open, the page asks again this often (and at once on `user.changed`). */
export const PAYMENT_POLL_MS = 2_000;

const isOpen = (payment: Payment | undefined) => !!payment && OPEN_PAYMENT_STATUSES.includes(payment.status);

/**
 * /transactions/{id}, the result page (spec §4): loading; "Processing your payment" while the provider
 * has not decided (polled, and reloaded when the server says the member changed); completed with the
 * toast "Order #{id} is completed" and the credits added; failed or cancelled with a way to try
 * again; returned or charged back. The top navigation's credits follow by themselves: the member
 * provider reloads the member on `user.changed`.
 */
export function TransactionResult({ id, newClientId }: { id: number; newClientId?: () => string }) {
  const queryClient = useQueryClient();
  const payment = useQuery({
    ...paymentQuery(id),
    refetchInterval: (query) => (isOpen(query.state.data) ? PAYMENT_POLL_MS : false),
  });
  useServerEvent("user.changed", () => {
    if (isOpen(queryClient.getQueryData(paymentQuery(id).queryKey))) {
      void queryClient.invalidateQueries({ queryKey: paymentQuery(id).queryKey });
    }
  });
  // An order opened from the history is old news: no toast unless it completes while on screen.
  const fromHistory = (useLocation().state as { fromHistory?: boolean } | null)?.fromHistory === true;
  useCompletion(payment.data, fromHistory);
  return (
    <QueryState query={payment} loading="payments.result_loading">
      {(data) => <ResultView payment={data} newClientId={newClientId} />}
    </QueryState>
  );
}

/**
 * Once per page, when the payment is (or becomes) paid: the toast (not for a paid order opened from
 * the history), and the lists that depend on it marked stale. Without a live connection the member
 * is reloaded once, so that the navigation's credits do not wait for the next poll; with one, the
 * member provider does it on `user.changed`.
 */
function useCompletion(payment: Payment | undefined, fromHistory: boolean) {
  const intl = useIntl();
  const toast = useToast();
  const queryClient = useQueryClient();
  const { refresh } = useMember();
  const live = useServerEventsState() === "open";
  const announced = useRef(false);
  const seenOpen = useRef(false);
  useEffect(() => {
    if (isOpen(payment)) seenOpen.current = true;
    if (payment?.status !== "paid" || announced.current) return;
    announced.current = true;
    if (fromHistory && !seenOpen.current) return;
    toast({
      body: (
        <>
          <strong className="d-block">
            {intl.formatMessage({ id: "payments.completed_toast" }, { id: payment.payment_id })}
          </strong>
          {intl.formatMessage({ id: "payments.credits_added" }, { credits: payment.credits })}
        </>
      ),
    });
    void queryClient.invalidateQueries({ queryKey: BUNDLES_KEY });
    void queryClient.invalidateQueries({ queryKey: TRANSACTIONS_KEY });
    if (!live) void refresh().catch(() => undefined);
  }, [payment, fromHistory, intl, toast, queryClient, refresh, live]);
}

function ResultView({ payment, newClientId }: { payment: Payment; newClientId?: (() => string) | undefined }) {
  const statusRef = useRef<HTMLDivElement>(null);
  return (
    <>
      <div ref={statusRef} tabIndex={-1} className="mb-4">
        <Outcome payment={payment} newClientId={newClientId} />
      </div>
      <OrderDetails payment={payment} />
      <ReturnOrder payment={payment} onDone={() => statusRef.current?.focus()} />
      <p className="mt-4">
        <Link to="/transactions">
          <FormattedMessage id="payments.all_orders" />
        </Link>
      </p>
    </>
  );
}

/** What happened to the payment, and what the member can do next. */
function Outcome({ payment, newClientId }: { payment: Payment; newClientId?: (() => string) | undefined }) {
  if (OPEN_PAYMENT_STATUSES.includes(payment.status)) {
    const checkout = safeCheckoutUrl(payment.checkout_url);
    return (
      <div className="alert alert-info">
        <div role="status" className="d-flex align-items-center gap-2 h5 mb-2">
          <Spinner animation="border" size="sm" aria-hidden="true" />
          <FormattedMessage id="payments.processing" />
        </div>
        <p className="mb-0">
          <FormattedMessage id="payments.processing_hint" />
        </p>
        {checkout ? (
          <a href={checkout} className="btn btn-primary mt-3">
            <FormattedMessage id="payments.continue_paying" />
          </a>
        ) : null}
      </div>
    );
  }
  if (payment.status === "paid") return <Paid payment={payment} />;
  if (FAILED_PAYMENT_STATUSES.includes(payment.status)) {
    // Spec §8: a recurring card payment that failed offers a retry and PayPal.
    if (payment.method === "creditcard" && payment.recurring) {
      return <CardRepeatFailed payment={payment} newClientId={newClientId} />;
    }
    return <RetryOrder payment={payment} newClientId={newClientId} />;
  }
  return (
    <div className="alert alert-secondary">
      <p className="h5 mb-0">
        <FormattedMessage id={payment.status === "refunded" ? "payments.refunded" : "payments.charged_back"} />
      </p>
    </div>
  );
}

function Paid({ payment }: { payment: Payment }) {
  // The page the member came from (a chat whose credits ran out), kept by /credits in this tab.
  const back = readReturnPath();
  return (
    <div className="alert alert-success">
      <p className="h5">
        <FormattedMessage id="payments.credits_added" values={{ credits: payment.credits }} />
      </p>
      <p>
        <FormattedMessage id="payments.paid_premium" />
      </p>
      <Link to={back ?? "/members"} className="btn btn-success">
        <FormattedMessage id={back ? "payments.go_back" : "payments.go_members"} />
      </Link>
    </div>
  );
}

const leaveForCheckout = (url: string) => window.location.assign(url);

/**
 * A failed, cancelled or expired order (issue #29): "Try again" pays the same order again (its bundle,
 * method and discount code, as a new payment on the server) and goes on to the provider's page; the
 * package choice stays one link away. A code that ended meanwhile, or a method no longer offered, says
 * so here, where the member can then choose again.
 */
function RetryOrder({ payment, newClientId }: { payment: Payment; newClientId?: (() => string) | undefined }) {
  const navigate = useNavigate();
  const { run, ...attempt } = usePaymentAttempt(newClientId);
  const retry = () =>
    run(`retry-${payment.payment_id}`, async (clientId) => {
      const answer = await retryPayment(payment.payment_id, clientId);
      const checkout = safeCheckoutUrl(answer.checkout_url);
      if (checkout) leaveForCheckout(checkout);
      else await navigate(`/transactions/${answer.payment_id}`);
    });
  return (
    <RetryForm message="payments.failed" attempt={attempt} onRetry={retry}>
      <Link to={`/credits${returnQuery(readReturnPath())}`} className="alert-link align-self-center">
        <FormattedMessage id="payments.change_package" />
      </Link>
    </RetryForm>
  );
}

/** A failed payment's message, the attempt's error, "Try again" (submits, and runs `onRetry`) and the other ways on. */
function RetryForm({
  message,
  attempt: { busy, error, formRef },
  onRetry,
  children,
}: {
  message: string;
  attempt: Pick<PaymentAttempt, "busy" | "error" | "formRef">;
  onRetry: () => Promise<void>;
  children: ReactNode;
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void onRetry();
  };
  return (
    <form ref={formRef} className="alert alert-danger" onSubmit={submit} noValidate>
      <p className="h5" role="alert">
        <FormattedMessage id={message} />
      </p>
      <FormAlert>{error}</FormAlert>
      <div className="d-flex flex-wrap gap-2">
        <BusyButton type="submit" busy={busy}>
          <FormattedMessage id="payments.try_again" />
        </BusyButton>
        {children}
      </div>
    </form>
  );
}

function CardRepeatFailed({ payment, newClientId }: { payment: Payment; newClientId?: (() => string) | undefined }) {
  const { buyAgain, ...attempt } = useRepeatOrder(newClientId);
  // The same bundle with PayPal, when it and PayPal are still offered.
  const bundles = useQuery(bundlesQuery);
  const bundle = bundles.data?.bundles.find((candidate) => candidate.id === payment.bundle_id);
  const paypalOffered = bundles.data?.methods.includes("paypal") ?? true;
  return (
    <RetryForm message="payments.card_failed" attempt={attempt} onRetry={() => buyAgain(`retry-${payment.payment_id}`)}>
      {paypalOffered ? (
        <Link to={bundle ? `/credits/${bundle.id}/paypal` : "/credits"} className="btn btn-outline-primary">
          <FormattedMessage id="payments.pay_paypal" />
        </Link>
      ) : null}
    </RetryForm>
  );
}

function OrderDetails({ payment }: { payment: Payment }) {
  const intl = useIntl();
  const methodName = useMethodName();
  return (
    <dl className="row bg-body rounded-3 shadow-sm p-3 mx-0 mb-0">
      <dt className="col-sm-4">
        <FormattedMessage id="payments.col_status" />
      </dt>
      <dd className="col-sm-8">
        <StatusBadge status={payment.status} />
      </dd>
      <dt className="col-sm-4">
        <FormattedMessage id="payments.col_credits" />
      </dt>
      <dd className="col-sm-8">{intl.formatNumber(payment.credits)}</dd>
      <dt className="col-sm-4">
        <FormattedMessage id="payments.col_amount" />
      </dt>
      <dd className="col-sm-8">
        <PaidAmount payment={payment} />
      </dd>
      <dt className="col-sm-4">
        <FormattedMessage id="payments.col_method" />
      </dt>
      <dd className="col-sm-8">{methodName(payment.method)}</dd>
      <dt className="col-sm-4">
        <FormattedMessage id="payments.col_date" />
      </dt>
      <dd className="col-sm-8 mb-0">
        <time dateTime={payment.created}>{intl.formatDate(payment.created, { dateStyle: "medium", timeStyle: "short" })}</time>
      </dd>
    </dl>
  );
}

/**
 * "Return this order" while the order is refundable (spec §1 "{refund_days} day free returns"): asked
 * first, then shown with its new status. The modal stays mounted when the button goes, so that it can
 * close and hand the focus to the new status.
 */
function ReturnOrder({ payment, onDone }: { payment: Payment; onDone: () => void }) {
  const intl = useIntl();
  const price = usePrice();
  const queryClient = useQueryClient();
  const [show, setShow] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const returned = useRef(false);
  const button = useRef<HTMLButtonElement>(null);
  const confirm = async () => {
    setBusy(true);
    setError("");
    try {
      const answer = await refundPayment(payment.payment_id);
      returned.current = true;
      queryClient.setQueryData(paymentQuery(payment.payment_id).queryKey, answer);
      void queryClient.invalidateQueries({ queryKey: TRANSACTIONS_KEY });
      setShow(false);
    } catch (caught) {
      setError(errorMessage(caught, intl));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      {payment.refundable ? (
        <button ref={button} type="button" className="btn btn-outline-dark mt-3" onClick={() => setShow(true)}>
          <FormattedMessage id="payments.refund_button" />
        </button>
      ) : null}
      <RefundModal
        show={show}
        amount={price(payment.amount, payment.currency)}
        credits={payment.credits}
        busy={busy}
        error={error}
        onCancel={() => {
          setShow(false);
          setError("");
        }}
        onConfirm={() => void confirm()}
        onExited={() => {
          // After a return this button is gone: the focus goes to the new status.
          if (returned.current) onDone();
          else button.current?.focus();
        }}
      />
    </>
  );
}
