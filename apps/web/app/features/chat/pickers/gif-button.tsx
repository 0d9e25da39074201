import type { Gif, GifsResponse } from "@app/contract";
import { useQuery } from "@tanstack/react-query";
import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from "react";
import { Button, Form, Modal } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { LoadFailed, Loading } from "../../../ui/load-state";
import { gifLocaleOf, gifsQuery } from "./api";

/** How long typing must pause before the search runs: one request per word, not per keystroke. */
export const GIF_SEARCH_DEBOUNCE_MS = 300;
/** The contract's longest query (gifsQuerySchema). */
const GIF_QUERY_MAX = 100;

/** `value`, once it has stayed the same for `ms`. */
function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** The attribution GIPHY's and Tenor's terms require wherever their results are shown. */
const ATTRIBUTION: Record<GifsResponse["provider"], string | null> = {
  local: null,
  giphy: "chat.gif.powered_giphy",
  tenor: "chat.gif.powered_tenor",
};

/**
 * The chat footer's "GIF" button and the GIF search modal (spec §2). The search runs
 * GIF_SEARCH_DEBOUNCE_MS after typing stops (Enter runs it at once), in the interface language's
 * gifLocale; an empty search shows the popular ones. Each result is a button (arrow keys move between
 * them); picking one hands it to `onPick` and closes. Sending (and paying) is the caller's.
 */
export function GifButton({
  costs,
  disabled = false,
  onPick,
}: {
  /** What a GIF message costs the member (message_credits). */
  costs: number;
  disabled?: boolean;
  onPick: (gif: Gif) => void;
}): ReactNode {
  const intl = useIntl();
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  // Disabled while open (the balance ran out, a send is under way): closed, so it does not reopen by itself later.
  if (disabled && open) setOpen(false);
  return (
    <>
      <Button
        ref={opener}
        variant="outline-primary"
        className="fw-semibold"
        onClick={() => setOpen(true)}
        disabled={disabled}
        aria-haspopup="dialog"
        aria-label={intl.formatMessage({ id: "chat.gif.button_label" })}
      >
        <FormattedMessage id="chat.gif.button" />
      </Button>
      <GifModal
        show={open}
        costs={costs}
        onHide={() => setOpen(false)}
        // Focus returns here even where a click does not focus the button (Safari): the modal would restore none.
        onExited={() => opener.current?.focus()}
        onPick={(gif) => {
          setOpen(false);
          onPick(gif);
        }}
      />
    </>
  );
}

function GifModal({
  show,
  onExited,
  costs,
  onHide,
  onPick,
}: {
  show: boolean;
  onExited: () => void;
  costs: number;
  onHide: () => void;
  onPick: (gif: Gif) => void;
}) {
  const intl = useIntl();
  const id = useId();
  const [typed, setTyped] = useState("");
  const [submitted, setSubmitted] = useState<string | null>(null);
  const debounced = useDebounced(typed.trim(), GIF_SEARCH_DEBOUNCE_MS);
  // Enter searches at once; typing again goes back to waiting for a pause.
  const q = submitted ?? debounced;
  const gifs = useQuery({ ...gifsQuery(q, gifLocaleOf(intl.locale)), enabled: show });
  const attribution = gifs.data ? ATTRIBUTION[gifs.data.provider] : null;

  return (
    <Modal
      show={show}
      onHide={onHide}
      onExited={() => {
        onExited();
        setTyped("");
        setSubmitted(null);
      }}
      size="lg"
      centered
      scrollable
      aria-labelledby={`${id}-title`}
    >
      <Modal.Header closeButton closeLabel={intl.formatMessage({ id: "alerts.close" })}>
        <Modal.Title id={`${id}-title`} className="h5">
          <FormattedMessage id="chat.gif.title" />
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <Form
          role="search"
          className="mb-3"
          onSubmit={(event) => {
            event.preventDefault();
            setSubmitted(typed.trim());
          }}
        >
          <Form.Label htmlFor={`${id}-q`}>
            <FormattedMessage id="chat.gif.search_label" />
          </Form.Label>
          <Form.Control
            id={`${id}-q`}
            type="search"
            value={typed}
            onChange={(event) => {
              setTyped(event.target.value);
              setSubmitted(null);
            }}
            maxLength={GIF_QUERY_MAX}
            autoComplete="off"
            enterKeyHint="search"
            // The dialog exists to search: typing can start at once.
            autoFocus
          />
        </Form>
        {gifs.isPending ? (
          <Loading>
            <FormattedMessage id="chat.gif.loading" />
          </Loading>
        ) : gifs.isError ? (
          <LoadFailed
            message={intl.formatMessage({ id: "chat.gif.load_failed" })}
            retry={<FormattedMessage id="chat.gif.retry" />}
            onRetry={() => void gifs.refetch()}
          />
        ) : (
          <GifResults gifs={gifs.data.gifs} q={q} stale={gifs.isPlaceholderData} onPick={onPick} />
        )}
      </Modal.Body>
      <Modal.Footer className="justify-content-between">
        <span className="text-body-secondary small">
          <FormattedMessage id="chat.gif.costs" values={{ credits: costs }} />
        </span>
        {attribution ? <span className="small fw-semibold">{intl.formatMessage({ id: attribution })}</span> : null}
        <Button variant="outline-secondary" onClick={onHide}>
          <FormattedMessage id="chat.gif.cancel" />
        </Button>
      </Modal.Footer>
    </Modal>
  );
}

/** Arrow keys, Home and End move the focus between the results (Tab still walks them one by one). */
function moveFocus(event: KeyboardEvent<HTMLUListElement>) {
  const buttons = [...event.currentTarget.querySelectorAll<HTMLButtonElement>("button")];
  const current = buttons.indexOf(document.activeElement as HTMLButtonElement);
  if (current < 0) return;
  const first = buttons[0];
  const columns = first ? buttons.filter((button) => button.offsetTop === first.offsetTop).length : 1;
  const steps: Record<string, number> = {
    ArrowRight: 1,
    ArrowLeft: -1,
    ArrowDown: columns,
    ArrowUp: -columns,
    Home: -current,
    End: buttons.length - 1 - current,
  };
  const step = steps[event.key];
  if (step === undefined) return;
  event.preventDefault();
  buttons[Math.min(buttons.length - 1, Math.max(0, current + step))]?.focus();
}

function GifResults({ gifs, q, stale, onPick }: { gifs: Gif[]; q: string; stale: boolean; onPick: (gif: Gif) => void }) {
  const intl = useIntl();
  return (
    <>
      <p role="status" className="visually-hidden">
        {stale ? null : <FormattedMessage id="chat.gif.results" values={{ count: gifs.length }} />}
      </p>
      {gifs.length === 0 ? (
        stale ? null : (
          <p className="text-body-secondary text-center py-4 mb-0">
            {q ? <FormattedMessage id="chat.gif.empty" values={{ q }} /> : <FormattedMessage id="chat.gif.none" />}
          </p>
        )
      ) : (
        <ul
          className={`chat-gif-grid list-unstyled mb-0${stale ? " opacity-50" : ""}`}
          aria-label={intl.formatMessage({ id: "chat.gif.results_label" })}
          aria-busy={stale}
          onKeyDown={moveFocus}
        >
          {gifs.map((gif) => (
            <li key={gif.id}>
              <button type="button" className="chat-gif-option btn p-0 w-100" onClick={() => onPick(gif)}>
                <img
                  src={gif.preview_url}
                  alt={gif.title || intl.formatMessage({ id: "chat.gif.untitled" })}
                  width={gif.width}
                  height={gif.height}
                  loading="lazy"
                  decoding="async"
                  className="chat-gif-preview rounded"
                />
              </button>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
