import type { BundlesResponse } from "@app/contract";
import { type FormEvent, useEffect, useState } from "react";
import { Button } from "react-bootstrap";
import { FormattedMessage } from "react-intl";
import { Link, useNavigate } from "react-router";
import { useMember } from "../../lib/member";
import { BundleChoice, defaultBundleId, WithBundles } from "./bundles";
import { returnQuery, storeReturnPath } from "./session";

/**
 * Remembers the page's `?return=` (where the member was when credits ran out, e.g. a chat) for the
 * result page after the provider's checkout; a visit without one forgets an older one.
 */
export function useReturnPath(returnParam: string | null): void {
  useEffect(() => storeReturnPath(returnParam), [returnParam]);
}

/**
 * /credits (spec §2): the member's balance, the credit package choice, and the repeat order when there
 * is one. `discountPercentage`: the discount shown to the member (the route passes it), for the prices.
 */
export function CreditsChoice({
  returnParam,
  discountPercentage = null,
  initialBundles = null,
}: {
  returnParam: string | null;
  discountPercentage?: number | null;
  /** The bundles as the server rendered the page with them (issue #29), or null: loaded here. */
  initialBundles?: BundlesResponse | null;
}) {
  useReturnPath(returnParam);
  const { user } = useMember();
  return (
    <>
      {user ? (
        <p className="lead">
          <FormattedMessage id="payments.balance" values={{ credits: user.credits }} />
        </p>
      ) : null}
      <WithBundles initial={initialBundles}>
        {(data) => <ChoiceForm data={data} discountPercentage={discountPercentage} returnParam={returnParam} />}
      </WithBundles>
    </>
  );
}

function ChoiceForm({
  data,
  discountPercentage,
  returnParam,
}: {
  data: BundlesResponse;
  discountPercentage: number | null;
  returnParam: string | null;
}) {
  const navigate = useNavigate();
  const [chosen, setChosen] = useState<number | null>(() => defaultBundleId(data.bundles));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // The way back travels on in the URL (issue #29): the checkout keeps it, and so does its "Choose another package".
    if (chosen !== null) void navigate(`/credits/${chosen}${returnQuery(returnParam)}`);
  };
  return (
    <>
      {data.repeat_order ? (
        <p>
          <Link to="/credits/repeat-order" className="btn btn-outline-primary">
            <FormattedMessage id="payments.repeat_link" />
          </Link>
        </p>
      ) : null}
      <form onSubmit={submit}>
        <BundleChoice bundles={data.bundles} value={chosen} onChange={setChosen} discountPercentage={discountPercentage} />
        {data.bundles.length > 0 ? (
          <Button type="submit" size="lg" disabled={chosen === null}>
            <FormattedMessage id="payments.continue" />
          </Button>
        ) : null}
      </form>
      <p className="mt-3 small text-body-secondary">
        <FormattedMessage id="payments.premium_note" />{" "}
        <FormattedMessage id="payments.refund_days" values={{ refund_days: data.refund_days }} />
      </p>
    </>
  );
}
