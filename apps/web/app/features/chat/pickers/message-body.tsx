import { type ChatMessage, nameValues } from "@app/contract";
import { type ReactNode, useState } from "react";
import { Modal } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";

type BodyMessage = Pick<ChatMessage, "kind" | "text" | "photo" | "gift" | "gif">;

/**
 * A message's content by its kind (spec §2 chat screen): text, a photo, a gift (with its optional text)
 * or a GIF. `name` is the sender's, for the photo's description. Texts are plain text (decision 020):
 * React escapes them, line breaks and spaces are kept, long words wrap, and nothing in them becomes a
 * link or markup. A message whose photo, gift or GIF is missing shows its text.
 */
export function MessageBody({ message, name }: { message: BodyMessage; name: string }): ReactNode {
  if (message.kind === "photo" && message.photo) return <MessagePhoto photo={message.photo} name={name} />;
  if (message.kind === "gift" && message.gift) return <MessageGift gift={message.gift} text={message.text} />;
  if (message.kind === "gif" && message.gif) return <MessageGif gif={message.gif} />;
  return <MessageText text={message.text} />;
}

function MessageText({ text }: { text: string }) {
  return text ? <p className="chat-message-text mb-0">{text}</p> : null;
}

function MessagePhoto({ photo, name }: { photo: NonNullable<ChatMessage["photo"]>; name: string }) {
  const intl = useIntl();
  const [open, setOpen] = useState(false);
  const alt = intl.formatMessage({ id: "chat.body.photo_alt" }, nameValues(name));
  return (
    <>
      <button
        type="button"
        className="btn p-0 border-0 d-block"
        onClick={() => setOpen(true)}
        aria-haspopup="dialog"
        title={intl.formatMessage({ id: "chat.body.photo_open" })}
      >
        <img src={photo.url} alt={alt} width={photo.width} height={photo.height} loading="lazy" className="chat-photo rounded" />
      </button>
      <Modal show={open} onHide={() => setOpen(false)} size="xl" centered aria-label={alt} contentClassName="bg-dark">
        <Modal.Header
          closeButton
          closeVariant="white"
          closeLabel={intl.formatMessage({ id: "alerts.close" })}
          className="border-0"
        />
        <Modal.Body className="p-2 pt-0 text-center">
          <img src={photo.url} alt={alt} width={photo.width} height={photo.height} className="chat-lightbox-image" />
        </Modal.Body>
      </Modal>
    </>
  );
}

function MessageGift({ gift, text }: { gift: NonNullable<ChatMessage["gift"]>; text: string }) {
  const intl = useIntl();
  return (
    <div>
      <figure className="chat-gift d-flex align-items-center gap-2 mb-0">
        {/* The caption names the gift; the image would only say it twice. */}
        <img src={gift.image_url} alt="" width={64} height={64} className="chat-gift-image" />
        <figcaption>
          <span className="d-block small text-uppercase opacity-75">
            <FormattedMessage id="chat.body.gift_label" />
          </span>
          <span className="fw-semibold">{intl.formatMessage({ id: `gift.${gift.id}` })}</span>
        </figcaption>
      </figure>
      {text ? <p className="chat-message-text mb-0 mt-2">{text}</p> : null}
    </div>
  );
}

function MessageGif({ gif }: { gif: NonNullable<ChatMessage["gif"]> }) {
  const intl = useIntl();
  return (
    <figure className="chat-gif position-relative d-inline-block mb-0">
      <img
        src={gif.url}
        alt={gif.title || intl.formatMessage({ id: "chat.gif.untitled" })}
        width={gif.width}
        height={gif.height}
        loading="lazy"
        className="chat-gif-image rounded d-block"
      />
      <figcaption className="chat-gif-label badge text-bg-dark">
        <FormattedMessage id="chat.body.gif_label" />
      </figcaption>
    </figure>
  );
}
