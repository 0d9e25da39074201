import type { Gift } from "@app/contract";
import { useQuery } from "@tanstack/react-query";
import { type ReactNode, useId, useRef, useState } from "react";
import { Button, Modal } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { GiftGlyph } from "../../../ui/gift-glyph";
import { LoadFailed, Loading } from "../../../ui/load-state";
import { TextField } from "../../../ui/text-field";
import { giftsQuery } from "./api";

/** A gift message's text is a short note under the gift; the server still checks message_length. */
const GIFT_TEXT_MAX = 200;

/**
 * The chat footer's "Send a gift" (spec §2 chat screen: gift messages). It opens a modal with the gift
 * catalogue (GET /api/gifts.php) as a grid of buttons, each with its image, name and price, and an
 * optional short text; Send hands the chosen gift and the text to `onPick` and closes. Sending (and
 * paying) is the caller's: this only picks. react-bootstrap's Modal moves focus into the dialog, keeps
 * it there and gives it back to this button when it closes.
 */
export function GiftButton({
  name,
  costs,
  disabled = false,
  initiallyOpen = false,
  onPick,
}: {
  name: string;
  /** Open on arrival: the profile's "Send a gift" leads to the conversation with the picker open. */
  initiallyOpen?: boolean;
  /** What a gift costs the member (settings.gift_credits), shown until a gift is chosen. */
  costs: number;
  disabled?: boolean;
  onPick: (gift: Gift, text: string) => void;
}): ReactNode {
  const intl = useIntl();
  const [open, setOpen] = useState(initiallyOpen && !disabled);
  const opener = useRef<HTMLButtonElement>(null);
  // Disabled while open (the balance ran out, a send is under way): closed, so it does not reopen by itself later.
  if (disabled && open) setOpen(false);
  return (
    <>
      <Button
        ref={opener}
        variant="outline-primary"
        onClick={() => setOpen(true)}
        disabled={disabled}
        aria-haspopup="dialog"
        aria-label={intl.formatMessage({ id: "chat.gift.button" })}
      >
        <GiftGlyph />
        {/* On a phone the glyph alone: the message field keeps the footer's width. */}
        <span className="ms-2 d-none d-md-inline" aria-hidden="true">
          <FormattedMessage id="chat.gift.button" />
        </span>
      </Button>
      <GiftModal
        show={open}
        name={name}
        costs={costs}
        onHide={() => setOpen(false)}
        // Focus returns here even where a click does not focus the button (Safari): the modal would restore none.
        onExited={() => opener.current?.focus()}
        onPick={(gift, text) => {
          setOpen(false);
          onPick(gift, text);
        }}
      />
    </>
  );
}

function GiftModal({
  show,
  onExited,
  name,
  costs,
  onHide,
  onPick,
}: {
  show: boolean;
  onExited: () => void;
  name: string;
  costs: number;
  onHide: () => void;
  onPick: (gift: Gift, text: string) => void;
}) {
  const intl = useIntl();
  const id = useId();
  const titleId = `${id}-title`;
  const gifts = useQuery({ ...giftsQuery, enabled: show });
  const [chosen, setChosen] = useState<Gift | null>(null);
  const [text, setText] = useState("");
  const price = chosen?.credits ?? costs;

  return (
    <Modal
      show={show}
      onHide={onHide}
      onExited={() => {
        onExited();
        setChosen(null);
        setText("");
      }}
      centered
      scrollable
      aria-labelledby={titleId}
    >
      <form
        className="chat-picker-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (chosen) onPick(chosen, text.trim());
        }}
      >
        <Modal.Header closeButton closeLabel={intl.formatMessage({ id: "alerts.close" })}>
          <Modal.Title id={titleId} className="h5">
            <FormattedMessage id="chat.gift.title" values={{ name }} />
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {gifts.isPending ? (
            <Loading>
              <FormattedMessage id="chat.gift.loading" />
            </Loading>
          ) : gifts.isError ? (
            <LoadFailed
              message={intl.formatMessage({ id: "chat.gift.load_failed" })}
              retry={<FormattedMessage id="chat.gift.retry" />}
              onRetry={() => void gifts.refetch()}
            />
          ) : gifts.data.length === 0 ? (
            <p className="text-body-secondary mb-0">
              <FormattedMessage id="chat.gift.none" />
            </p>
          ) : (
            <>
              <ul className="chat-gift-grid list-unstyled mb-3" aria-label={intl.formatMessage({ id: "chat.gift.choose" })}>
                {gifts.data.map((gift) => {
                  const selected = chosen?.id === gift.id;
                  return (
                    <li key={gift.id}>
                      <button
                        type="button"
                        className={`chat-gift-option btn w-100 ${selected ? "btn-primary" : "btn-outline-secondary"}`}
                        aria-pressed={selected}
                        onClick={() => setChosen(gift)}
                      >
                        <img
                          src={gift.image_url}
                          alt={intl.formatMessage({ id: `gift.${gift.id}` })}
                          width={64}
                          height={64}
                          className="chat-gift-image d-block mx-auto mb-1"
                        />
                        <span className="d-block small">
                          <FormattedMessage id="chat.gift.credits" values={{ credits: gift.credits }} />
                        </span>
                      </button>
                    </li>
                  );
                })}
              </ul>
              <TextField
                id={`${id}-text`}
                label={<FormattedMessage id="chat.gift.text_label" />}
                value={text}
                onChange={setText}
                maxLength={GIFT_TEXT_MAX}
                className="mb-0"
              />
            </>
          )}
        </Modal.Body>
        <Modal.Footer className="justify-content-between">
          <span className="text-body-secondary small" aria-live="polite">
            {chosen ? (
              <FormattedMessage
                id="chat.gift.chosen"
                values={{ gift: intl.formatMessage({ id: `gift.${chosen.id}` }), credits: price }}
              />
            ) : (
              <FormattedMessage id="chat.gift.costs" values={{ credits: price }} />
            )}
          </span>
          <span className="d-flex gap-2">
            <Button variant="outline-secondary" onClick={onHide}>
              <FormattedMessage id="chat.gift.cancel" />
            </Button>
            <Button type="submit" variant="primary" disabled={!chosen}>
              <FormattedMessage id="chat.gift.send" />
            </Button>
          </span>
        </Modal.Footer>
      </form>
    </Modal>
  );
}
