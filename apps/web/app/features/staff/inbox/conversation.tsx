import {
  type ChatMessage,
  GIFT_IDS,
  INBOX_NOTE_LENGTH,
  type InboxConversation,
  type InboxLease,
  nameValues,
  STAFF_INBOX_ENDPOINTS,
} from "@app/contract";
import { type FormEvent, useEffect, useId, useState } from "react";
import { Badge, Button, Form } from "react-bootstrap";
import { FormattedMessage, FormattedTime, useIntl } from "react-intl";
import { errorMessage } from "../../../lib/form-errors";
import { BusyButton } from "../../../ui/busy-button";
import { FictionalIcon } from "../../../ui/fictional-icon";
import { FormAlert } from "../../../ui/form-alert";
import { PhotoOrPlaceholder } from "../../../ui/photo-placeholder";
import { staffFetch, useStaffQuery } from "../api";
import { usePersonaTyping } from "./live";

const E = STAFF_INBOX_ENDPOINTS;
type Answer = { text: string } | { gift: string; text?: string | undefined } | { gif: string } | { photo_id: number };

/** One message as the operator sees it: the persona's on the right. */
function Message({ message, persona }: { message: ChatMessage; persona: string }) {
  const intl = useIntl();
  const mine = message.from_me;
  return (
    <li className={`d-flex ${mine ? "justify-content-end" : ""}`}>
      <div className={`inbox-message rounded-3 px-3 py-2 mb-2 ${mine ? "bg-primary-subtle" : "bg-body-secondary"}`}>
        {mine ? <span className="visually-hidden">{persona}: </span> : null}
        {message.gift ? <img src={message.gift.image_url} alt={message.gift.id} width={48} height={48} /> : null}
        {message.gif ? <img src={message.gif.preview_url} alt={message.gif.title} height={96} /> : null}
        {message.photo ? (
          <img
            src={`/staff/api/inbox/${message.conversation_id}/photos/${message.id}.jpg`}
            alt={intl.formatMessage({ id: "staff.inbox.kind.photo" })}
            width={Math.round((message.photo.width / message.photo.height) * 160)}
            height={160}
            className="d-block rounded"
          />
        ) : null}
        {message.text ? <p className="mb-0 text-break">{message.text}</p> : null}
        <span className="d-block small text-body-secondary">
          <FormattedTime value={message.created_at} />
        </span>
      </div>
    </li>
  );
}

/** The pair's note: what operators keep about this member for this persona. */
function NoteForm({ conversation, onSaved }: { conversation: InboxConversation; onSaved: () => void }) {
  const intl = useIntl();
  const [text, setText] = useState(conversation.note?.text ?? "");
  const [state, setState] = useState<{ busy: boolean; error: unknown; saved: boolean }>({
    busy: false,
    error: null,
    saved: false,
  });
  const id = useId();
  useEffect(() => setText(conversation.note?.text ?? ""), [conversation.note?.text]);
  const save = async (event: FormEvent) => {
    event.preventDefault();
    setState({ busy: true, error: null, saved: false });
    try {
      await staffFetch(E.inboxNote, { params: { conversationId: conversation.conversation_id }, body: { text } });
      setState({ busy: false, error: null, saved: true });
      onSaved();
    } catch (error) {
      setState({ busy: false, error, saved: false });
    }
  };
  return (
    <Form onSubmit={save} className="mb-3">
      <Form.Label htmlFor={id} className="fw-semibold">
        <FormattedMessage id="staff.inbox.note" />
      </Form.Label>
      <Form.Control
        id={id}
        as="textarea"
        rows={3}
        maxLength={INBOX_NOTE_LENGTH}
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      {state.error ? <FormAlert>{errorMessage(state.error, intl)}</FormAlert> : null}
      <div className="d-flex align-items-center gap-2 mt-2">
        <BusyButton type="submit" size="sm" variant="outline-primary" busy={state.busy}>
          <FormattedMessage id="staff.inbox.note_save" />
        </BusyButton>
        {state.saved ? (
          <span className="small text-success" role="status">
            <FormattedMessage id="staff.inbox.note_saved" />
          </span>
        ) : null}
      </div>
    </Form>
  );
}

/** Answers as the persona: a text, a gift (the text goes with it), a GIF or one of the persona's photos. */
function Composer({ conversation, onSent }: { conversation: InboxConversation; onSent: () => void }) {
  const intl = useIntl();
  const conversationId = conversation.conversation_id;
  const [text, setText] = useState("");
  const [gifQuery, setGifQuery] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const typing = usePersonaTyping(conversationId);
  const gifs = useStaffQuery(E.inboxGifs, { query: { q: gifQuery } }, { staleTime: 60_000 });
  const textId = useId();
  const send = async (answer: Answer) => {
    setBusy(true);
    setError(null);
    typing.stopped();
    try {
      await staffFetch(E.inboxAnswer, { params: { conversationId }, body: { client_id: crypto.randomUUID(), ...answer } });
      setText("");
      onSent();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim()) void send({ text });
  };
  return (
    <Form
      onSubmit={submit}
      aria-label={intl.formatMessage({ id: "staff.inbox.composer" }, nameValues(conversation.persona.name))}
    >
      <Form.Label htmlFor={textId} className="fw-semibold">
        <FormattedMessage id="staff.inbox.composer" values={nameValues(conversation.persona.name)} />
      </Form.Label>
      <Form.Control
        id={textId}
        as="textarea"
        rows={3}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          typing.typed();
        }}
        onBlur={() => typing.stopped()}
        onKeyDown={(e) => {
          if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) submit(e);
        }}
      />
      {error ? <FormAlert>{errorMessage(error, intl)}</FormAlert> : null}
      <div className="d-flex gap-2 mt-2">
        <BusyButton type="submit" busy={busy} disabled={!text.trim()}>
          <FormattedMessage id="staff.inbox.send" />
        </BusyButton>
      </div>
      <details className="mt-3">
        <summary>
          <FormattedMessage id="staff.inbox.gift" />
        </summary>
        <div className="d-flex flex-wrap gap-1 mt-2">
          {GIFT_IDS.map((gift) => (
            <Button
              key={gift}
              variant="outline-secondary"
              size="sm"
              disabled={busy}
              onClick={() => send({ gift, text: text.trim() || undefined })}
              aria-label={intl.formatMessage({ id: "staff.inbox.send_gift" }, { gift })}
            >
              <img src={`/media/gifts/${gift}.svg`} alt="" width={32} height={32} />
            </Button>
          ))}
        </div>
      </details>
      <details className="mt-2">
        <summary>
          <FormattedMessage id="staff.inbox.gif" />
        </summary>
        <Form.Control
          className="mt-2"
          type="search"
          size="sm"
          aria-label={intl.formatMessage({ id: "staff.inbox.gif_search" })}
          placeholder={intl.formatMessage({ id: "staff.inbox.gif_search" })}
          value={gifQuery}
          onChange={(e) => setGifQuery(e.target.value)}
        />
        <div className="d-flex flex-wrap gap-1 mt-2">
          {(gifs.data?.gifs ?? []).slice(0, 12).map((gif) => (
            <Button key={gif.id} variant="outline-secondary" size="sm" disabled={busy} onClick={() => send({ gif: gif.id })}>
              <img src={gif.preview_url} alt={gif.title} height={56} />
            </Button>
          ))}
        </div>
      </details>
      {conversation.persona.photos.length ? (
        <details className="mt-2">
          <summary>
            <FormattedMessage id="staff.inbox.photo" />
          </summary>
          <div className="d-flex flex-wrap gap-1 mt-2">
            {conversation.persona.photos.map((photo, index) => (
              <Button
                key={photo.id}
                variant="outline-secondary"
                size="sm"
                disabled={busy}
                onClick={() => send({ photo_id: photo.id })}
              >
                <PhotoOrPlaceholder
                  src={photo.thumb_url}
                  alt={intl.formatMessage({ id: "staff.inbox.send_photo" }, { n: index + 1 })}
                  width={56}
                  height={70}
                />
              </Button>
            ))}
          </div>
        </details>
      ) : null}
    </Form>
  );
}

/** A profile's panel: card, about text, interests. */
function ProfilePanel({
  title,
  profile,
  fictional,
}: {
  title: string;
  profile: InboxConversation["member"];
  fictional: boolean;
}) {
  return (
    <section className="mb-3">
      <h2 className="h6 text-uppercase text-body-secondary mb-2">{title}</h2>
      <div className="d-flex gap-2 align-items-center mb-2">
        <PhotoOrPlaceholder src={profile.photo_url} width={48} height={60} className="rounded flex-shrink-0" />
        <div>
          <span className="fw-semibold">{profile.name}</span> {fictional ? <FictionalIcon name="masks" labelled /> : null}
          <span className="d-block small text-body-secondary">
            {profile.age} · {[profile.city, profile.country].filter(Boolean).join(", ")}
          </span>
        </div>
      </div>
      <p className="small mb-1 text-break">{profile.about || <FormattedMessage id="staff.inbox.about_empty" />}</p>
      {profile.interests.length ? (
        <p className="small mb-0">
          {profile.interests.map((interest) => (
            <Badge key={interest} bg="secondary" className="me-1 fw-normal">
              {interest}
            </Badge>
          ))}
        </p>
      ) : null}
    </section>
  );
}

/**
 * One conversation as an operator answers it: the history (as the persona sees it), the member typing,
 * the composer (when claimed), the persona (its text and earlier lines) and the member, and the note.
 */
export function InboxConversationView({
  conversation,
  lease,
  memberTyping,
  onClaim,
  onLeave,
  onChanged,
  claiming,
}: {
  conversation: InboxConversation;
  lease: InboxLease | null;
  memberTyping: boolean;
  onClaim: () => void;
  onLeave: () => void;
  onChanged: () => void;
  claiming: boolean;
}) {
  const intl = useIntl();
  const { persona, member } = conversation;
  return (
    <div className="row g-4">
      <div className="col-lg-7">
        <div className="d-flex align-items-center justify-content-between gap-2 mb-2">
          <h2 className="h5 mb-0">
            <FormattedMessage id="staff.inbox.writes_to" values={{ member: member.name, persona: persona.name }} />
          </h2>
          {lease ? (
            <span className="d-flex align-items-center gap-2">
              <span className="small text-body-secondary">
                <FormattedMessage
                  id="staff.inbox.lease"
                  values={{ time: <FormattedTime value={lease.expires_at} timeStyle="medium" /> }}
                />
              </span>
              <Button size="sm" variant="outline-secondary" onClick={onLeave}>
                <FormattedMessage id="staff.inbox.leave" />
              </Button>
            </span>
          ) : (
            <BusyButton size="sm" onClick={onClaim} busy={claiming}>
              <FormattedMessage id="staff.inbox.claim" />
            </BusyButton>
          )}
        </div>
        <ol
          className="list-unstyled inbox-history border rounded p-2 mb-2"
          aria-label={intl.formatMessage({ id: "staff.inbox.history" })}
        >
          {conversation.history.map((message) => (
            <Message key={message.id} message={message} persona={persona.name} />
          ))}
        </ol>
        <p className="small text-body-secondary mb-2" role="status" aria-live="polite">
          {memberTyping ? <FormattedMessage id="staff.inbox.member_typing" values={{ name: member.name }} /> : null}
        </p>
        {lease ? <Composer conversation={conversation} onSent={onChanged} /> : null}
      </div>
      <div className="col-lg-5">
        <ProfilePanel title={intl.formatMessage({ id: "staff.inbox.persona" })} profile={persona} fictional />
        <section className="mb-3">
          <h2 className="h6 text-uppercase text-body-secondary mb-2">
            <FormattedMessage id="staff.inbox.earlier" />
          </h2>
          {conversation.earlier.length ? (
            <ul className="small ps-3 mb-0 inbox-earlier">
              {conversation.earlier.map((line) => (
                <li key={`${line.conversation_id}-${line.created_at}`} className="text-break">
                  {line.text}
                </li>
              ))}
            </ul>
          ) : (
            <p className="small text-body-secondary mb-0">
              <FormattedMessage id="staff.inbox.earlier_empty" />
            </p>
          )}
        </section>
        <ProfilePanel title={intl.formatMessage({ id: "staff.inbox.member" })} profile={member} fictional={false} />
        <NoteForm conversation={conversation} onSaved={onChanged} />
      </div>
    </div>
  );
}
