import type { Payment } from "@app/contract";
import { useQuery } from "@tanstack/react-query";
import { FormattedMessage, useIntl } from "react-intl";
import { Link } from "react-router";
import { transactionsQuery } from "./api";
import { PaidAmount, QueryState } from "./bundles";
import { useMethodName } from "./methods";
import { StatusBadge } from "./status";

/** Newest first, whatever order the answer had. */
function newestFirst(payments: readonly Payment[]): Payment[] {
  return [...payments].sort((a, b) => b.created.localeCompare(a.created) || b.payment_id - a.payment_id);
}

/** /transactions (spec §2): the member's orders, each leading to its result page; an empty state. */
export function TransactionsList() {
  const transactions = useQuery(transactionsQuery);
  return (
    <QueryState query={transactions} loading="payments.history_loading">
      {({ payments }) =>
        payments.length === 0 ? (
          <div>
            <p className="text-body-secondary">
              <FormattedMessage id="payments.history_empty" />
            </p>
            <Link to="/credits" className="btn btn-primary">
              <FormattedMessage id="payments.buy_credits" />
            </Link>
          </div>
        ) : (
          <PaymentsTable payments={newestFirst(payments)} />
        )
      }
    </QueryState>
  );
}

function PaymentsTable({ payments }: { payments: Payment[] }) {
  const intl = useIntl();
  const methodName = useMethodName();
  return (
    <div className="table-responsive">
      <table className="table table-hover align-middle bg-body">
        <caption className="visually-hidden">
          <FormattedMessage id="payments.history_caption" />
        </caption>
        <thead>
          <tr>
            <th scope="col">
              <FormattedMessage id="payments.col_date" />
            </th>
            <th scope="col">
              <FormattedMessage id="payments.col_order" />
            </th>
            <th scope="col" className="text-end">
              <FormattedMessage id="payments.col_credits" />
            </th>
            <th scope="col" className="text-end">
              <FormattedMessage id="payments.col_amount" />
            </th>
            <th scope="col">
              <FormattedMessage id="payments.col_method" />
            </th>
            <th scope="col">
              <FormattedMessage id="payments.col_status" />
            </th>
          </tr>
        </thead>
        <tbody>
          {payments.map((payment) => (
            <tr key={payment.payment_id}>
              <td>
                <time dateTime={payment.created}>{intl.formatDate(payment.created, { dateStyle: "medium" })}</time>
              </td>
              <th scope="row">
                <Link to={`/transactions/${payment.payment_id}`} state={{ fromHistory: true }}>
                  <FormattedMessage id="payments.order_number" values={{ id: payment.payment_id }} />
                </Link>
              </th>
              <td className="text-end">{intl.formatNumber(payment.credits)}</td>
              <td className="text-end">
                <PaidAmount payment={payment} />
              </td>
              <td>{methodName(payment.method)}</td>
              <td>
                <StatusBadge status={payment.status} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
