import { STAFF_DISCOUNTS_ENDPOINTS } from "@app/contract";
import { FormattedMessage, useIntl } from "react-intl";
import { useStaffQuery } from "../../features/staff/api";
import { Bundles } from "../../features/staff/discounts/bundles";
import { DiscountCodes } from "../../features/staff/discounts/discount-codes";
import { errorMessage } from "../../lib/form-errors";
import { FormAlert } from "../../ui/form-alert";
import { PageTitle } from "../../ui/page-title";

/** /staff/discounts (support, admin): discount codes and credit bundles, each write audited. */
export default function StaffDiscounts() {
  const intl = useIntl();
  const title = intl.formatMessage({ id: "staff.discounts.title" });
  const list = useStaffQuery(STAFF_DISCOUNTS_ENDPOINTS.discountsList);
  return (
    <section>
      <PageTitle title={title} />
      <h1 className="h3 mb-3">{title}</h1>
      {list.error ? <FormAlert>{errorMessage(list.error, intl)}</FormAlert> : null}
      <h2 className="h4 mt-2">
        <FormattedMessage id="staff.discounts.codes" />
      </h2>
      <DiscountCodes discounts={list.data?.discounts ?? []} />
      <h2 className="h4 mt-5">
        <FormattedMessage id="staff.discounts.bundles" />
      </h2>
      <Bundles bundles={list.data?.bundles ?? []} />
    </section>
  );
}
