import { type SendCosts, TYPING_THROTTLE_MS } from "@app/contract";
import { type FormEvent, type KeyboardEvent, type RefObject, useEffect, useId, useRef } from "react";
import { Button } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { useSendFrame } from "../../lib/server-events";
import { ImageIcon, SendIcon } from "./icons";
import { GifButton, GiftButton } from "./pickers";
import type { OutgoingContent } from "./use-outbox";

/** The counter shows once this few characters are left (spec: the footer counts down). */
const COUNTER_FROM = 200;
/** Photos a member may attach (the server's photo pipeline checks the bytes again). */
const PHOTO_TYPES = "image/jpeg,image/png,image/webp";

/** Characters as the server counts them (code points), so that the counter and the server agree. */
export const characters = (text: string) => [...text].length;

export interface ChatFooterProps {
  name: string;
  conversationId: number | null;
  costs: SendCosts;
  balance: number;
  maxLength: number;
  /** Sending is impossible here (the other member's address is unconfirmed): the field is off. */
  disabled: boolean;
  text: string;
  onText(text: string): void;
  onSend(content: OutgoingContent): void;
  textareaRef: RefObject<HTMLTextAreaElement | null>;
  /** The gift picker opens on arrival (`?gift=1`: the profile's "Send a gift"). */
  openGift?: boolean;
  /** The picker was opened for `openGift`: the parent forgets it. */
  onGiftOpened?: () => void;
}

/**
 * The send footer (spec §2): the message field with its countdown (Enter sends, Shift+Enter starts a
 * new line), send, attach a photo, a gift, a GIF, what a message costs and the balance. While the member
 * types, the other side hears it (`typing` frames, at most every TYPING_THROTTLE_MS; a stop on send and
 * on leaving the field).
 */
export function ChatFooter({
  name,
  conversationId,
  costs,
  balance,
  maxLength,
  disabled,
  text,
  onText,
  onSend,
  textareaRef,
  openGift = false,
  onGiftOpened,
}: ChatFooterProps) {
  const intl = useIntl();
  const fieldId = useId();
  const counterId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const sendFrame = useSendFrame();
  const typingSentAt = useRef<number | null>(null);
  // The gift picker took `openGift` when it mounted; tell the parent once.
  const giftAsked = useRef(openGift);
  useEffect(() => {
    if (giftAsked.current) onGiftOpened?.();
  }, [onGiftOpened]);

  const left = maxLength - characters(text);
  const tooLong = left < 0;
  const empty = text.trim() === "";

  const stopTyping = () => {
    if (typingSentAt.current === null || conversationId === null) return;
    typingSentAt.current = null;
    sendFrame({ type: "typing", conversation_id: conversationId, typing: false });
  };
  const typing = (value: string) => {
    if (conversationId === null) return;
    if (value.trim() === "") {
      stopTyping();
      return;
    }
    const now = Date.now();
    if (typingSentAt.current !== null && now - typingSentAt.current < TYPING_THROTTLE_MS) return;
    if (sendFrame({ type: "typing", conversation_id: conversationId, typing: true })) typingSentAt.current = now;
  };
  // Leaving the conversation stops the indicator on the other side too.
  const stopRef = useRef(stopTyping);
  stopRef.current = stopTyping;
  useEffect(() => () => stopRef.current(), []);

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (disabled || empty || tooLong) return;
    stopTyping();
    onSend({ kind: "text", text: text.trim() });
    onText("");
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };

  const attach = (files: FileList | null) => {
    const file = files?.[0];
    if (!file) return;
    onSend({ kind: "photo", file, previewUrl: typeof URL.createObjectURL === "function" ? URL.createObjectURL(file) : null });
    if (fileInput.current) fileInput.current.value = "";
  };

  const money = costs.minimum
    ? intl.formatNumber(costs.minimum.costs, { style: "currency", currency: costs.minimum.currency })
    : null;

  return (
    <form className="chat-footer border-top bg-body px-2 pt-2 pb-1" onSubmit={submit}>
      <div className="d-flex align-items-end gap-1">
        <div className="d-flex flex-shrink-0 gap-1 pb-1">
          <Button
            variant="outline-secondary"
            size="sm"
            disabled={disabled}
            onClick={() => fileInput.current?.click()}
            aria-label={intl.formatMessage({ id: "chat.attach_photo" }, { credits: costs.photo })}
            title={intl.formatMessage({ id: "chat.attach_photo" }, { credits: costs.photo })}
          >
            <ImageIcon />
          </Button>
          <input
            ref={fileInput}
            type="file"
            accept={PHOTO_TYPES}
            className="d-none"
            tabIndex={-1}
            aria-label={intl.formatMessage({ id: "chat.attach_photo" }, { credits: costs.photo })}
            onChange={(event) => attach(event.target.files)}
          />
          <GiftButton
            name={name}
            costs={costs.gift}
            disabled={disabled}
            initiallyOpen={openGift}
            onPick={(gift, giftText) => onSend({ kind: "gift", gift, text: giftText.trim() })}
          />
          <GifButton costs={costs.gif} disabled={disabled} onPick={(gif) => onSend({ kind: "gif", gif })} />
        </div>
        <label htmlFor={fieldId} className="visually-hidden">
          <FormattedMessage id="chat.message_label" values={{ name }} />
        </label>
        <textarea
          id={fieldId}
          ref={textareaRef}
          className={`form-control chat-input${tooLong ? " is-invalid" : ""}`}
          rows={1}
          value={text}
          disabled={disabled}
          placeholder={intl.formatMessage({ id: "chat.message_placeholder" })}
          aria-describedby={counterId}
          aria-invalid={tooLong || undefined}
          onChange={(event) => {
            onText(event.target.value);
            typing(event.target.value);
          }}
          onKeyDown={onKeyDown}
          onBlur={stopTyping}
        />
        <Button
          type="submit"
          variant="primary"
          className="flex-shrink-0"
          disabled={disabled || empty || tooLong}
          aria-label={intl.formatMessage({ id: "chat.send" })}
          title={intl.formatMessage({ id: "chat.send" })}
        >
          <SendIcon />
        </Button>
      </div>
      <div className="d-flex flex-wrap gap-2 small text-body-secondary px-1 pt-1">
        <span>
          <FormattedMessage id="chat.cost_message" values={{ credits: costs.message }} />
          {money ? ` (${money})` : null}
        </span>
        <span className="ms-auto">
          <FormattedMessage id="chat.balance" values={{ credits: balance }} />
        </span>
        <span
          id={counterId}
          className={tooLong ? "text-danger fw-semibold w-100" : left <= COUNTER_FROM ? "w-100" : "visually-hidden"}
        >
          {tooLong ? (
            <FormattedMessage id="chat.too_long" values={{ max: maxLength, over: -left }} />
          ) : (
            <FormattedMessage id="chat.characters_left" values={{ count: left }} />
          )}
        </span>
      </div>
    </form>
  );
}
