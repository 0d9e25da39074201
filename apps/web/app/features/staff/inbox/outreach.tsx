import { STAFF_INBOX_ENDPOINTS } from "@app/contract";
import { type FormEvent, useState } from "react";
import { Form } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { errorMessage } from "../../../lib/form-errors";
import { BusyButton } from "../../../ui/busy-button";
import { FormAlert } from "../../../ui/form-alert";
import { staffFetch } from "../api";

const E = STAFF_INBOX_ENDPOINTS;

/** A profile id's field. */
function IdField(props: { id: string; label: string; value: string; onChange: (value: string) => void }) {
  return (
    <Form.Group controlId={props.id} className="flex-fill">
      <Form.Label>
        <FormattedMessage id={props.label} />
      </Form.Label>
      <Form.Control inputMode="numeric" value={props.value} onChange={(e) => props.onChange(e.target.value.trim())} />
    </Form.Group>
  );
}

/** From a persona to a member: a like, or a first message (both audited on the server). */
export function PersonaOutreach() {
  const intl = useIntl();
  const [personaId, setPersonaId] = useState("");
  const [memberId, setMemberId] = useState("");
  const [text, setText] = useState("");
  const [state, setState] = useState<{ busy: boolean; error: unknown; done: string | null }>({
    busy: false,
    error: null,
    done: null,
  });
  const ids = () => ({ persona_id: Number(personaId), member_id: Number(memberId) });
  const run = async (work: () => Promise<string>) => {
    setState({ busy: true, error: null, done: null });
    try {
      setState({ busy: false, error: null, done: await work() });
    } catch (error) {
      setState({ busy: false, error, done: null });
    }
  };
  const like = () =>
    run(async () => {
      const liked = await staffFetch(E.inboxPersonaLike, { body: ids() });
      return intl.formatMessage({ id: "staff.inbox.outreach.liked" }, { state: liked.state });
    });
  const send = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      await staffFetch(E.inboxPersonaMessage, { body: { ...ids(), client_id: crypto.randomUUID(), text } });
      setText("");
      return intl.formatMessage({ id: "staff.inbox.outreach.sent" });
    });
  };
  return (
    <details className="mt-4">
      <summary className="fw-semibold">
        <FormattedMessage id="staff.inbox.outreach.title" />
      </summary>
      <Form onSubmit={send} className="mt-2" style={{ maxWidth: 520 }}>
        <div className="d-flex gap-2">
          <IdField id="outreach-persona" label="staff.inbox.outreach.persona_id" value={personaId} onChange={setPersonaId} />
          <IdField id="outreach-member" label="staff.inbox.outreach.member_id" value={memberId} onChange={setMemberId} />
        </div>
        <Form.Group controlId="outreach-text" className="mt-2">
          <Form.Label>
            <FormattedMessage id="staff.inbox.outreach.text" />
          </Form.Label>
          <Form.Control as="textarea" rows={2} value={text} onChange={(e) => setText(e.target.value)} />
        </Form.Group>
        {state.error ? <FormAlert>{errorMessage(state.error, intl)}</FormAlert> : null}
        {state.done ? <FormAlert variant="success">{state.done}</FormAlert> : null}
        <div className="d-flex gap-2 mt-2">
          <BusyButton type="button" variant="outline-primary" busy={state.busy} onClick={() => void like()}>
            <FormattedMessage id="staff.inbox.outreach.like" />
          </BusyButton>
          <BusyButton type="submit" busy={state.busy} disabled={!text.trim()}>
            <FormattedMessage id="staff.inbox.outreach.message" />
          </BusyButton>
        </div>
      </Form>
    </details>
  );
}
