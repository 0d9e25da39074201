import { STAFF_SUPPORT_ENDPOINTS, type SupportMemberHit } from "@app/contract";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { Badge, Form, Table } from "react-bootstrap";
import { FormattedDate, FormattedMessage, useIntl } from "react-intl";
import { Link, useNavigate, useSearchParams } from "react-router";
import { useStaffQuery } from "../../features/staff/api";
import { step, useShortcuts } from "../../features/staff/shortcuts";
import { ShortcutHints } from "../../features/staff/support/shortcut-hints";
import { HeaderRow } from "../../features/staff/table";
import { errorMessage } from "../../lib/form-errors";
import { FormAlert } from "../../ui/form-alert";
import { PageTitle } from "../../ui/page-title";

/** How long typing rests before the search runs. */
const TYPING_PAUSE_MS = 250;

/**
 * /staff/members (support): find a member by e-mail, name, id or payment id. `/` focuses the search box,
 * j/k move through the results, Enter opens the selected member (also from the search box).
 */
export default function StaffMembers() {
  const intl = useIntl();
  const title = intl.formatMessage({ id: "staff.support.search.title" });
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const q = (params.get("q") ?? "").trim();
  const [text, setText] = useState(q);
  const [selected, setSelected] = useState(0);
  const box = useRef<HTMLInputElement>(null);
  const results = useStaffQuery(STAFF_SUPPORT_ENDPOINTS.search, { query: { q } }, { enabled: q.length > 0 });
  const members = q ? (results.data?.members ?? []) : [];

  useEffect(() => {
    const wanted = text.trim();
    if (wanted === q) return;
    const timer = setTimeout(() => {
      setParams(wanted ? { q: wanted } : {}, { replace: true });
      setSelected(0);
    }, TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text, q, setParams]);

  useEffect(() => {
    // The search box is where a support call starts.
    if (!q) box.current?.focus();
  }, [q]);

  const open = (hit: SupportMemberHit | undefined) => {
    if (hit) void navigate(`/staff/members/${hit.user_id}`);
  };
  useShortcuts({
    "/": () => box.current?.focus(),
    j: () => setSelected((i) => step(i, 1, members.length)),
    k: () => setSelected((i) => step(i, -1, members.length)),
    Enter: () => open(members[selected]),
    Escape: () => box.current?.blur(),
  });
  useEffect(() => {
    document.getElementById(`member-hit-${selected}`)?.scrollIntoView({ block: "nearest" });
  }, [selected]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim() === q) open(members[selected]);
    else setParams(text.trim() ? { q: text.trim() } : {}, { replace: true });
  };

  return (
    <section>
      <PageTitle title={title} />
      <h1 className="h3 mb-3">{title}</h1>
      <Form role="search" onSubmit={submit} className="mb-2" style={{ maxWidth: 560 }}>
        <Form.Group controlId="member-search">
          <Form.Label>
            <FormattedMessage id="staff.support.search.label" />
          </Form.Label>
          <Form.Control
            ref={box}
            type="search"
            value={text}
            onChange={(event) => setText(event.target.value)}
            autoComplete="off"
            spellCheck={false}
            maxLength={200}
            aria-describedby="member-search-hint"
          />
          <Form.Text id="member-search-hint">
            <FormattedMessage id="staff.support.search.hint" />
          </Form.Text>
        </Form.Group>
      </Form>
      <ShortcutHints
        keys={[
          ["/", "staff.support.keys.search"],
          ["j k", "staff.support.keys.move"],
          ["Enter", "staff.support.keys.open"],
        ]}
      />
      {results.error ? <FormAlert>{errorMessage(results.error, intl)}</FormAlert> : null}
      <p className="visually-hidden" aria-live="polite">
        {q && results.data ? <FormattedMessage id="staff.support.search.count" values={{ count: members.length }} /> : null}
      </p>
      {q && results.data && members.length === 0 ? (
        <p className="text-body-secondary">
          <FormattedMessage id="staff.support.search.none" values={{ q }} />
        </p>
      ) : null}
      {members.length > 0 ? (
        <Table hover responsive className="align-middle">
          <HeaderRow
            ids={[
              "staff.support.member.id",
              "staff.support.member.name",
              "staff.support.member.email",
              "staff.support.member.status",
              "staff.support.member.signup",
              "staff.support.search.matched",
            ]}
          />
          <tbody>
            {members.map((hit, index) => (
              <tr
                key={hit.user_id}
                id={`member-hit-${index}`}
                className={index === selected ? "table-active" : undefined}
                aria-current={index === selected ? "true" : undefined}
              >
                <td>{hit.user_id}</td>
                <td>
                  <Link to={`/staff/members/${hit.user_id}`} onFocus={() => setSelected(index)}>
                    {hit.name ?? intl.formatMessage({ id: "staff.support.member.no_profile" })}
                  </Link>
                  {hit.fictional ? (
                    <Badge bg="secondary" className="ms-2">
                      <FormattedMessage id="staff.support.member.fictional" />
                    </Badge>
                  ) : null}
                </td>
                <td>{hit.email ?? "–"}</td>
                <td>
                  <FormattedMessage id={`staff.support.status.${hit.status}`} />
                </td>
                <td className="text-nowrap">
                  <FormattedDate value={hit.signup_date} dateStyle="medium" />
                </td>
                <td>
                  <FormattedMessage id={`staff.support.matched.${hit.matched}`} />
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      ) : null}
    </section>
  );
}
