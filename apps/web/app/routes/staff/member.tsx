import { STAFF_AUTH_ENDPOINTS, STAFF_SUPPORT_ENDPOINTS, type SupportDossier, type SupportPayment } from "@app/contract";
import { type FormEvent, type ReactNode, useState } from "react";
import { Alert, Badge, Button, Form, Tab, Table, Tabs } from "react-bootstrap";
import { FormattedDate, FormattedMessage, FormattedNumber, useIntl } from "react-intl";
import { Link, useNavigate, useParams, useSearchParams } from "react-router";
import { useStaffMutation, useStaffQuery } from "../../features/staff/api";
import { useShortcuts } from "../../features/staff/shortcuts";
import { CorrectionDialog, RefundDialog } from "../../features/staff/support/dialogs";
import { ReasonField } from "../../features/staff/support/reason-field";
import { ShortcutHints } from "../../features/staff/support/shortcut-hints";
import { HeaderRow } from "../../features/staff/table";
import { errorMessage, fieldErrors } from "../../lib/form-errors";
import { BusyButton } from "../../ui/busy-button";
import { FormAlert } from "../../ui/form-alert";
import { PageTitle } from "../../ui/page-title";
import { AuditTable } from "./audit";

const TABS = ["account", "photos", "credits", "payments", "likes", "logins", "conversations", "audit"] as const;
type TabKey = (typeof TABS)[number];

const Time = ({ value }: { value: string }) => <FormattedDate value={value} dateStyle="medium" timeStyle="short" />;

/**
 * /staff/members/:userId (support): the member's dossier in tabs. Keys: 1–8 pick a tab, c corrects
 * credits, / goes back to the search. Conversations open only after a recorded reason.
 */
export default function StaffMember() {
  const intl = useIntl();
  const navigate = useNavigate();
  const userId = Number(useParams().userId);
  const [params, setParams] = useSearchParams();
  const tab: TabKey = TABS.find((t) => t === params.get("tab")) ?? "account";
  const setTab = (next: string | null) => setParams(next && next !== "account" ? { tab: next } : {}, { replace: true });
  const dossier = useStaffQuery(STAFF_SUPPORT_ENDPOINTS.dossier, { params: { userId } }, { enabled: userId > 0 });
  const [correcting, setCorrecting] = useState(false);
  const [corrected, setCorrected] = useState<number | null>(null);
  const [refunding, setRefunding] = useState<SupportPayment | null>(null);
  const data = dossier.data;
  const name = data?.profile?.name ?? data?.account.email ?? `#${userId}`;
  const title = intl.formatMessage({ id: "staff.support.dossier.title" }, { name });

  useShortcuts({
    ...Object.fromEntries(TABS.map((t, i) => [String(i + 1), () => setTab(t)])),
    c: () => data && setCorrecting(true),
    "/": () => void navigate("/staff/members"),
  });

  if (dossier.error) return <FormAlert>{errorMessage(dossier.error, intl)}</FormAlert>;
  if (!data) return <p aria-busy="true">{intl.formatMessage({ id: "staff.support.loading" })}</p>;
  const balance = data.credits.balance;
  return (
    <section>
      <PageTitle title={title} />
      <p className="mb-1">
        <Link to="/staff/members">
          <FormattedMessage id="staff.support.dossier.back" />
        </Link>
      </p>
      <h1 className="h3 mb-1">
        {name} <small className="text-body-secondary">#{data.account.user_id}</small>
        {data.account.fictional ? (
          <Badge bg="secondary" className="ms-2 fs-6">
            <FormattedMessage id="staff.support.member.fictional" />
          </Badge>
        ) : null}
      </h1>
      <p className="text-body-secondary mb-2">
        {data.account.email ?? "–"} · <FormattedMessage id={`staff.support.status.${data.account.status}`} /> ·{" "}
        <FormattedMessage id="staff.support.credits.balance" values={{ balance }} />
      </p>
      <div className="d-flex flex-wrap gap-2 align-items-center mb-2">
        <Button variant="primary" onClick={() => setCorrecting(true)}>
          <FormattedMessage id="staff.support.correct.open" />
        </Button>
      </div>
      {corrected !== null ? (
        <Alert variant="success" dismissible onClose={() => setCorrected(null)} role="status">
          <FormattedMessage id="staff.support.correct.done" values={{ balance: corrected }} />
        </Alert>
      ) : null}
      <ShortcutHints
        keys={[
          ["1–8", "staff.support.keys.tabs"],
          ["c", "staff.support.keys.correct"],
          ["/", "staff.support.keys.back"],
        ]}
      />
      <Tabs id="dossier-tabs" activeKey={tab} onSelect={setTab} className="mb-3" mountOnEnter transition={false}>
        <Tab eventKey="account" title={intl.formatMessage({ id: "staff.support.tab.account" })}>
          <AccountTab data={data} />
        </Tab>
        <Tab eventKey="photos" title={intl.formatMessage({ id: "staff.support.tab.photos" }, { count: data.photos.length })}>
          <PhotosTab photos={data.photos} />
        </Tab>
        <Tab eventKey="credits" title={intl.formatMessage({ id: "staff.support.tab.credits" })}>
          <LedgerTab data={data} />
        </Tab>
        <Tab
          eventKey="payments"
          title={intl.formatMessage({ id: "staff.support.tab.payments" }, { count: data.payments.length })}
        >
          <PaymentsTab data={data} onRefund={setRefunding} />
        </Tab>
        <Tab eventKey="likes" title={intl.formatMessage({ id: "staff.support.tab.likes" })}>
          <LikesTab data={data} />
        </Tab>
        <Tab eventKey="logins" title={intl.formatMessage({ id: "staff.support.tab.logins" })}>
          <LoginsTab data={data} />
        </Tab>
        <Tab eventKey="conversations" title={intl.formatMessage({ id: "staff.support.tab.conversations" })}>
          <ConversationsTab userId={userId} openUntil={data.conversations_open_until} />
        </Tab>
        <Tab eventKey="audit" title={intl.formatMessage({ id: "staff.support.tab.audit" })}>
          <MemberAudit userId={userId} />
        </Tab>
      </Tabs>
      <CorrectionDialog
        userId={userId}
        balance={balance}
        show={correcting}
        onHide={() => setCorrecting(false)}
        onDone={(after) => {
          setCorrecting(false);
          setCorrected(after);
        }}
      />
      <RefundDialog payment={refunding} balance={balance} onHide={() => setRefunding(null)} />
    </section>
  );
}

function Facts({ rows }: { rows: readonly (readonly [string, ReactNode])[] }) {
  return (
    <dl className="row mb-0">
      {rows.map(([label, value]) => (
        <div className="col-12 d-flex" key={label}>
          <dt className="col-4 col-lg-3 fw-normal text-body-secondary">
            <FormattedMessage id={label} />
          </dt>
          <dd className="col mb-1">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function AccountTab({ data }: { data: SupportDossier }) {
  const { account, profile } = data;
  return (
    <div className="row g-4">
      <div className="col-lg-6">
        <h2 className="h5">
          <FormattedMessage id="staff.support.account.heading" />
        </h2>
        <Facts
          rows={[
            ["staff.support.member.id", account.user_id],
            ["staff.support.member.email", account.email ?? "–"],
            ["staff.support.member.status", <FormattedMessage key="s" id={`staff.support.status.${account.status}`} />],
            ["staff.support.account.language", account.language],
            ["staff.support.member.signup", <Time key="t" value={account.signup_date} />],
            [
              "staff.support.account.invisible",
              <FormattedMessage key="i" id={account.invisible ? "staff.support.yes" : "staff.support.no"} />,
            ],
            [
              "staff.support.account.deletion",
              account.deletion_requested_at ? <Time key="d" value={account.deletion_requested_at} /> : "–",
            ],
            [
              "staff.support.credits.premium",
              <FormattedMessage key="p" id={data.credits.paid ? "staff.support.yes" : "staff.support.no"} />,
            ],
          ]}
        />
      </div>
      <div className="col-lg-6">
        <h2 className="h5">
          <FormattedMessage id="staff.support.profile.heading" />
        </h2>
        {profile ? (
          <Facts
            rows={[
              ["staff.support.member.name", profile.name],
              ["staff.support.profile.status", profile.status],
              ["staff.support.profile.gender", `${profile.gender} → ${profile.seeking}`],
              ["staff.support.profile.birth_date", profile.birth_date],
              ["staff.support.profile.place", [profile.city, profile.region, profile.country].filter(Boolean).join(", ")],
              ["staff.support.profile.interests", profile.interests.join(", ") || "–"],
              [
                "staff.support.profile.about",
                <span key="a" className="text-break" style={{ whiteSpace: "pre-wrap" }}>
                  {profile.about || "–"}
                </span>,
              ],
            ]}
          />
        ) : (
          <p className="text-body-secondary">
            <FormattedMessage id="staff.support.member.no_profile" />
          </p>
        )}
      </div>
    </div>
  );
}

function PhotosTab({ photos }: { photos: SupportDossier["photos"] }) {
  const intl = useIntl();
  if (photos.length === 0) return <Empty />;
  return (
    <ul className="list-unstyled d-flex flex-wrap gap-3">
      {photos.map((photo, index) => (
        <li key={photo.id} className="text-center" style={{ width: 160 }}>
          <a href={photo.url} target="_blank" rel="noreferrer">
            <img
              src={photo.thumb_url}
              alt={intl.formatMessage({ id: "staff.support.photos.alt" }, { n: index + 1 })}
              className="img-thumbnail"
              width={160}
              height={200}
              style={{ objectFit: "cover" }}
              loading="lazy"
            />
          </a>
          <div className="small">
            <FormattedMessage id={`staff.support.photos.status.${photo.status}`} />
            {photo.is_main ? (
              <Badge bg="primary" className="ms-1">
                <FormattedMessage id="staff.support.photos.main" />
              </Badge>
            ) : null}
            {photo.private ? (
              <Badge bg="dark" className="ms-1">
                <FormattedMessage id="staff.support.photos.locked" />
              </Badge>
            ) : null}
          </div>
        </li>
      ))}
    </ul>
  );
}

function LedgerTab({ data }: { data: SupportDossier }) {
  return (
    <>
      <p>
        <FormattedMessage id="staff.support.credits.balance" values={{ balance: data.credits.balance }} />
      </p>
      {data.ledger.length === 0 ? (
        <Empty />
      ) : (
        <Table size="sm" responsive>
          <HeaderRow
            ids={[
              "staff.support.when",
              "staff.support.credits.kind",
              "staff.support.credits.delta",
              "staff.support.credits.after",
            ]}
          />
          <tbody>
            {data.ledger.map((row) => (
              <tr key={row.id}>
                <td className="text-nowrap">
                  <Time value={row.created} />
                </td>
                <td>
                  <code>{row.kind}</code>
                </td>
                <td className={row.delta < 0 ? "text-danger" : "text-success"}>{row.delta > 0 ? `+${row.delta}` : row.delta}</td>
                <td>{row.balance_after}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </>
  );
}

function PaymentsTab({ data, onRefund }: { data: SupportDossier; onRefund: (payment: SupportPayment) => void }) {
  return (
    <>
      {data.payment_flag ? (
        <Alert variant="warning">
          <FormattedMessage id={`staff.support.payments.flag.${data.payment_flag.reason}`} />{" "}
          <Time value={data.payment_flag.at} />
        </Alert>
      ) : null}
      {data.payments.length === 0 ? (
        <Empty />
      ) : (
        <Table size="sm" responsive className="align-middle">
          <HeaderRow
            ids={[
              "staff.support.payments.order",
              "staff.support.when",
              "staff.support.payments.status",
              "staff.support.payments.amount",
              "staff.support.payments.credits",
              "staff.support.payments.provider",
              "staff.support.payments.actions",
            ]}
          />
          <tbody>
            {data.payments.map((payment) => (
              <tr key={payment.payment_id}>
                <td>#{payment.payment_id}</td>
                <td className="text-nowrap">
                  <Time value={payment.created} />
                </td>
                <td>
                  <FormattedMessage id={`staff.support.payment_status.${payment.status}`} />
                  {payment.refund_requested_at ? (
                    <span className="text-body-secondary">
                      {" "}
                      (<FormattedMessage id="staff.support.payments.refunded_by_support" />)
                    </span>
                  ) : null}
                </td>
                <td>
                  <FormattedNumber value={payment.amount} style="currency" currency={payment.currency} /> · {payment.method}
                </td>
                <td>
                  {payment.credits}
                  {payment.reversed_credits > 0 ? (
                    <span className="text-body-secondary">
                      {" "}
                      (<FormattedMessage id="staff.support.payments.reversed" values={{ credits: payment.reversed_credits }} />)
                    </span>
                  ) : null}
                </td>
                <td>
                  <code className="small">{payment.provider_id ?? payment.provider}</code>
                </td>
                <td>
                  {payment.refundable ? (
                    <Button size="sm" variant="outline-danger" onClick={() => onRefund(payment)}>
                      <FormattedMessage id="staff.support.refund.open" values={{ id: payment.payment_id }} />
                    </Button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </>
  );
}

function LikesTab({ data }: { data: SupportDossier }) {
  return (
    <div className="row g-4">
      {(["sent", "received"] as const).map((way) => (
        <div className="col-lg-6" key={way}>
          <h2 className="h5">
            <FormattedMessage id={`staff.support.likes.${way}`} />
          </h2>
          {data.likes[way].length === 0 ? (
            <Empty />
          ) : (
            <ul className="list-unstyled">
              {data.likes[way].map((like) => (
                <li key={like.profile_id}>
                  {like.user_id ? <Link to={`/staff/members/${like.user_id}`}>{like.name}</Link> : like.name}
                  {like.fictional ? (
                    <Badge bg="secondary" className="ms-1">
                      <FormattedMessage id="staff.support.member.fictional" />
                    </Badge>
                  ) : null}
                  {like.matched ? (
                    <Badge bg="success" className="ms-1">
                      <FormattedMessage id="staff.support.likes.match" />
                    </Badge>
                  ) : null}{" "}
                  <small className="text-body-secondary">
                    <Time value={like.created} />
                  </small>
                </li>
              ))}
            </ul>
          )}
        </div>
      ))}
    </div>
  );
}

function LoginsTab({ data }: { data: SupportDossier }) {
  if (data.logins.length === 0) return <Empty />;
  return (
    <Table size="sm" responsive>
      <HeaderRow
        ids={[
          "staff.support.when",
          "staff.support.logins.method",
          "staff.support.logins.address",
          "staff.support.logins.browser",
        ]}
      />
      <tbody>
        {data.logins.map((login) => (
          <tr key={`${login.created}-${login.address}`}>
            <td className="text-nowrap">
              <Time value={login.created} />
            </td>
            <td>
              <FormattedMessage id={`staff.support.logins.by.${login.method}`} />
            </td>
            <td>
              <code>{login.address}</code>
            </td>
            <td className="small text-break">{login.user_agent || "–"}</td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

/** Conversations: a reason first (audited), then the list and one conversation's messages. */
function ConversationsTab({ userId, openUntil }: { userId: number; openUntil: string | null }) {
  const intl = useIntl();
  const open = useStaffMutation(STAFF_SUPPORT_ENDPOINTS.openConversations, ["/staff/api/support/members", "/staff/api/audit"]);
  const [reason, setReason] = useState("");
  const [chosen, setChosen] = useState<number | null>(null);
  const isOpen = openUntil !== null && new Date(openUntil).getTime() > Date.now();
  const list = useStaffQuery(STAFF_SUPPORT_ENDPOINTS.conversations, { params: { userId } }, { enabled: isOpen });
  const messages = useStaffQuery(
    STAFF_SUPPORT_ENDPOINTS.messages,
    { params: { userId, conversationId: chosen ?? 0 } },
    { enabled: isOpen && chosen !== null },
  );
  if (!isOpen) {
    const fields = fieldErrors(open.error, ["reason"] as const);
    const whole = open.error && !fields.reason ? errorMessage(open.error, intl) : null;
    const submit = (event: FormEvent) => {
      event.preventDefault();
      open.mutate({ params: { userId }, body: { reason } });
    };
    return (
      <Form onSubmit={submit} noValidate style={{ maxWidth: 560 }}>
        <p>
          <FormattedMessage id="staff.support.conversations.closed" />
        </p>
        {whole ? <FormAlert>{whole}</FormAlert> : null}
        <ReasonField
          id="conversations-reason"
          hintId="staff.support.conversations.reason_hint"
          value={reason}
          onChange={setReason}
          error={fields.reason}
        />
        <BusyButton type="submit" busy={open.isPending}>
          <FormattedMessage id="staff.support.conversations.open" />
        </BusyButton>
      </Form>
    );
  }
  const conversations = list.data?.conversations ?? [];
  return (
    <div className="row g-3">
      <p className="col-12 small text-body-secondary mb-0">
        <FormattedMessage
          id="staff.support.conversations.open_until"
          values={{ time: <FormattedDate value={openUntil ?? ""} timeStyle="short" /> }}
        />
      </p>
      <div className="col-lg-4">
        {list.error ? <FormAlert>{errorMessage(list.error, intl)}</FormAlert> : null}
        {list.data && conversations.length === 0 ? <Empty /> : null}
        <div className="list-group">
          {conversations.map((c) => (
            <button
              type="button"
              key={c.conversation_id}
              className={`list-group-item list-group-item-action${chosen === c.conversation_id ? " active" : ""}`}
              aria-pressed={chosen === c.conversation_id}
              onClick={() => setChosen(c.conversation_id)}
            >
              {c.other.name || `#${c.other.profile_id}`}
              {c.other.fictional ? (
                <Badge bg="secondary" className="ms-1">
                  <FormattedMessage id="staff.support.member.fictional" />
                </Badge>
              ) : null}
              <div className="small">
                <FormattedMessage id="staff.support.conversations.count" values={{ count: c.messages }} /> ·{" "}
                <Time value={c.updated} />
              </div>
            </button>
          ))}
        </div>
      </div>
      <div className="col-lg-8">
        {messages.error ? <FormAlert>{errorMessage(messages.error, intl)}</FormAlert> : null}
        {chosen !== null && messages.data ? (
          <ol className="list-unstyled" aria-label={intl.formatMessage({ id: "staff.support.conversations.messages" })}>
            {messages.data.messages.map((m) => (
              <li key={m.id} className={`mb-2 d-flex ${m.from_member ? "justify-content-end" : ""}`}>
                <div
                  className={`p-2 rounded border ${m.from_member ? "bg-primary-subtle" : "bg-body-tertiary"}`}
                  style={{ maxWidth: "80%" }}
                >
                  <div className="small text-body-secondary">
                    <FormattedMessage
                      id={m.from_member ? "staff.support.conversations.member" : "staff.support.conversations.other"}
                    />{" "}
                    · <Time value={m.created} />
                    {m.kind !== "text" ? <code className="ms-1">{m.kind}</code> : null}
                  </div>
                  <div style={{ whiteSpace: "pre-wrap" }} className="text-break">
                    {m.text || m.gift_id || ""}
                  </div>
                </div>
              </li>
            ))}
          </ol>
        ) : null}
      </div>
    </div>
  );
}

function MemberAudit({ userId }: { userId: number }) {
  const intl = useIntl();
  const log = useStaffQuery(STAFF_AUTH_ENDPOINTS.audit, { query: { member_id: userId, limit: 100 } });
  if (log.error) return <FormAlert>{errorMessage(log.error, intl)}</FormAlert>;
  return <AuditTable entries={log.data?.entries ?? []} />;
}

function Empty() {
  return (
    <p className="text-body-secondary">
      <FormattedMessage id="staff.support.empty" />
    </p>
  );
}
