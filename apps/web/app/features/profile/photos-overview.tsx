import { LIMITS, type Photo, type PhotosResponse } from "@app/contract";
import { type CSSProperties, useEffect, useRef, useState } from "react";
import { Alert, Badge, Button, ButtonGroup, Modal, Spinner } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { Link } from "react-router";
import { errorCode, errorMessage } from "../../lib/form-errors";
import { useMember } from "../../lib/member";
import { usePurchasesAvailable } from "../../lib/purchases";
import { BusyButton } from "../../ui/busy-button";
import { FormAlert } from "../../ui/form-alert";
import { PurchasesUnavailableNote } from "../../ui/purchases-unavailable";
import { deletePhoto, getPhotos, type PhotoChange, updatePhoto, uploadPhoto } from "./api";
import { PhotoFileField } from "./photo-file-field";

type PhotoAction = "main" | "private" | "move-left" | "move-right" | "delete";

/** A photo's badges in the images overview (spec §2: success, info, warning). */
export function photoBadges(photo: Pick<Photo, "is_main" | "private" | "status">): { id: string; variant: string }[] {
  const badges: { id: string; variant: string }[] = [];
  if (photo.is_main) badges.push({ id: "profile.badge_main", variant: "success" });
  if (photo.private) badges.push({ id: "profile.badge_private", variant: "info" });
  if (photo.status === "pending") badges.push({ id: "profile.badge_pending", variant: "warning" });
  if (photo.status === "rejected") badges.push({ id: "profile.badge_rejected", variant: "warning" });
  return badges;
}

const byPosition = (photos: readonly Photo[]) => [...photos].sort((a, b) => a.position - b.position || a.id - b.id);

/** Portrait thumbnails (4:5), the way member cards show them. */
const PORTRAIT = { "--bs-aspect-ratio": "125%" } as CSSProperties;

export interface PhotosOverviewProps {
  photos: readonly Photo[];
  /** How many photos the member may have (3 free, 25 premium). */
  limit: number;
  paidUser: boolean;
  /** The photos changed on the server (upload, delete, ...): the completeness meter follows. */
  onPhotosChange?: (photos: Photo[]) => void;
}

/**
 * The images overview of the member's own profile (spec §2): every photo with its badges and actions
 * (main photo, premium-only, order, delete), the usage against the photo limit, and the upload. Free
 * members at their limit get the photo-limit-reached alert pointing to premium.
 */
export function PhotosOverview({ photos: initialPhotos, limit: initialLimit, paidUser, onPhotosChange }: PhotosOverviewProps) {
  const intl = useIntl();
  const member = useMember();
  const purchasesAvailable = usePurchasesAvailable();
  const [photos, setPhotos] = useState(() => byPosition(initialPhotos));
  const [limit, setLimit] = useState(initialLimit);
  const [busy, setBusy] = useState(false);
  const busyRef = useRef(false);
  const [error, setError] = useState("");
  const [announcement, setAnnouncement] = useState("");
  const [confirming, setConfirming] = useState<Photo | null>(null);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [confirmError, setConfirmError] = useState("");
  const deletedIndex = useRef<number | null>(null);
  const focusAfter = useRef<{ id: number; action: PhotoAction } | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);

  const focusPhoto = (id: number | undefined, action: PhotoAction) => {
    const card = id === undefined ? null : listRef.current?.querySelector(`[data-photo-id="${id}"]`);
    // At the end of the row a move button is disabled: the other direction is the natural next step.
    const other = action === "move-left" ? "move-right" : action === "move-right" ? "move-left" : action;
    const target =
      card?.querySelector<HTMLElement>(`[data-action="${action}"]:not(:disabled)`) ??
      card?.querySelector<HTMLElement>(`[data-action="${other}"]:not(:disabled)`) ??
      card?.querySelector<HTMLElement>("button:not(:disabled)") ??
      headingRef.current;
    target?.focus();
  };

  // After a change the photos may have moved (or the button gone): keep focus on the same photo's control.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs after each new list of photos
  useEffect(() => {
    const after = focusAfter.current;
    if (!after) return;
    focusAfter.current = null;
    focusPhoto(after.id, after.action);
  }, [photos]);

  const apply = (answer: PhotosResponse, messageId: string, values: Record<string, number> = {}) => {
    setPhotos(byPosition(answer.photos));
    onPhotosChange?.(answer.photos);
    setLimit(answer.photo_limit);
    setAnnouncement(intl.formatMessage({ id: messageId }, values));
    // The main image shows in the navigation and decides the add-photos alert.
    void member.refresh().catch(() => {});
  };

  const begin = () => {
    if (busyRef.current) return false;
    busyRef.current = true;
    setBusy(true);
    setError("");
    setAnnouncement("");
    return true;
  };
  const end = () => {
    busyRef.current = false;
    setBusy(false);
  };

  const change = async (photo: Photo, action: PhotoAction, update: PhotoChange, messageId: string) => {
    if (!begin()) return;
    try {
      const answer = await updatePhoto(photo.id, update);
      focusAfter.current = { id: photo.id, action };
      apply(answer, messageId, { position: (update.position ?? 0) + 1 });
    } catch (caught) {
      setError(errorMessage(caught, intl));
    }
    end();
  };

  const upload = async (file: File) => {
    if (!begin()) return;
    try {
      apply(await uploadPhoto(file), "profile.photo_uploaded");
    } catch (caught) {
      setError(errorMessage(caught, intl));
      // Another tab may have filled the last place: show what the server has.
      if (errorCode(caught) === "photo_limit_reached") {
        await getPhotos()
          .then((answer) => {
            setPhotos(byPosition(answer.photos));
            setLimit(answer.photo_limit);
          })
          .catch(() => {});
      }
    }
    end();
  };

  const askDelete = (photo: Photo) => {
    deletedIndex.current = null;
    setConfirmError("");
    setConfirming(photo);
    setConfirmOpen(true);
  };

  const confirmDelete = async () => {
    if (!confirming || !begin()) return;
    try {
      const answer = await deletePhoto(confirming.id);
      deletedIndex.current = photos.findIndex((p) => p.id === confirming.id);
      apply(answer, "profile.photo_deleted");
      setConfirmOpen(false);
    } catch (caught) {
      setConfirmError(errorMessage(caught, intl));
    }
    end();
  };

  /** Focus after the dialog: the photo that took the deleted one's place, or back on the Delete button. */
  const afterDialog = () => {
    const index = deletedIndex.current;
    if (index !== null) {
      const next = photos[Math.min(index, photos.length - 1)];
      focusPhoto(next?.id, "delete");
    } else if (confirming) {
      focusPhoto(confirming.id, "delete");
    }
    deletedIndex.current = null;
    setConfirming(null);
  };

  const full = photos.length >= limit;
  const closeLabel = intl.formatMessage({ id: "alerts.close" });

  return (
    <section className="card shadow-sm mb-4" aria-labelledby="profile-photos-heading">
      <div className="card-body">
        <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
          <h2 id="profile-photos-heading" className="h5 mb-0 me-auto" tabIndex={-1} ref={headingRef}>
            <FormattedMessage id="profile.photos_title" />
          </h2>
          {paidUser ? (
            <Badge bg="primary" pill>
              <span aria-hidden="true">★ </span>
              <FormattedMessage id="profile.premium_member" />
            </Badge>
          ) : null}
          <span className="text-body-secondary small">
            <FormattedMessage id="profile.photo_usage" values={{ count: photos.length, limit }} />
          </span>
        </div>
        <FormAlert>{error}</FormAlert>
        {photos.some((photo) => photo.status === "pending") ? (
          <p className="text-body-secondary small">
            <FormattedMessage id="profile.photos_in_review" />
          </p>
        ) : null}
        <div role="status" aria-live="polite" className="visually-hidden">
          {announcement}
        </div>
        {photos.length === 0 ? (
          <p className="text-body-secondary">
            <FormattedMessage id="profile.no_photos" />
          </p>
        ) : (
          <ul ref={listRef} className="row row-cols-2 row-cols-sm-3 row-cols-lg-4 g-3 list-unstyled mb-3" aria-busy={busy}>
            {photos.map((photo, index) => {
              const number = index + 1;
              return (
                <li key={photo.id} className="col" data-photo-id={photo.id}>
                  <div className="card h-100">
                    <div className="position-relative">
                      <div className="ratio" style={PORTRAIT}>
                        <img
                          src={photo.thumb_url}
                          alt={intl.formatMessage({ id: "profile.photo_alt" }, { number })}
                          className="card-img-top object-fit-cover"
                          loading="lazy"
                        />
                      </div>
                      <ul className="list-unstyled position-absolute top-0 start-0 m-0 p-2 d-flex flex-wrap gap-1">
                        {photoBadges(photo).map((badge) => (
                          <li key={badge.id}>
                            <Badge
                              bg={badge.variant}
                              text={badge.variant === "warning" || badge.variant === "info" ? "dark" : undefined}
                            >
                              <FormattedMessage id={badge.id} />
                            </Badge>
                          </li>
                        ))}
                      </ul>
                    </div>
                    {photo.status === "rejected" && photo.rejection_reason ? (
                      <p className="small text-danger-emphasis px-2 pt-2 mb-0" data-testid="photo-rejection">
                        <FormattedMessage
                          id="profile.photo_rejected_reason"
                          values={{ reason: intl.formatMessage({ id: `moderation.reason.${photo.rejection_reason}` }) }}
                        />
                      </p>
                    ) : null}
                    <fieldset className="card-body p-2 d-grid gap-1 align-content-start">
                      <legend className="visually-hidden">
                        <FormattedMessage id="profile.photo_actions" values={{ number }} />
                      </legend>
                      {!photo.is_main && photo.status !== "rejected" ? (
                        <Button
                          size="sm"
                          variant="outline-success"
                          data-action="main"
                          onClick={() => void change(photo, "main", { main: true }, "profile.photo_main_set")}
                        >
                          <FormattedMessage id="profile.set_main" />
                        </Button>
                      ) : null}
                      <Button
                        size="sm"
                        variant="outline-secondary"
                        data-action="private"
                        onClick={() =>
                          void change(
                            photo,
                            "private",
                            { private: !photo.private },
                            photo.private ? "profile.photo_made_public" : "profile.photo_made_private",
                          )
                        }
                      >
                        <FormattedMessage id={photo.private ? "profile.make_public" : "profile.make_private"} />
                      </Button>
                      {photos.length > 1 ? (
                        <ButtonGroup size="sm" className="w-100">
                          <Button
                            variant="outline-secondary"
                            data-action="move-left"
                            disabled={index === 0}
                            title={intl.formatMessage({ id: "profile.move_left" })}
                            onClick={() => void change(photo, "move-left", { position: index - 1 }, "profile.photo_moved")}
                          >
                            <span aria-hidden="true">←</span>
                            <span className="visually-hidden">
                              <FormattedMessage id="profile.move_left" />
                            </span>
                          </Button>
                          <Button
                            variant="outline-secondary"
                            data-action="move-right"
                            disabled={index === photos.length - 1}
                            title={intl.formatMessage({ id: "profile.move_right" })}
                            onClick={() => void change(photo, "move-right", { position: index + 1 }, "profile.photo_moved")}
                          >
                            <span aria-hidden="true">→</span>
                            <span className="visually-hidden">
                              <FormattedMessage id="profile.move_right" />
                            </span>
                          </Button>
                        </ButtonGroup>
                      ) : null}
                      <Button size="sm" variant="outline-danger" data-action="delete" onClick={() => askDelete(photo)}>
                        <FormattedMessage id="profile.delete_photo" />
                      </Button>
                    </fieldset>
                  </div>
                </li>
              );
            })}
          </ul>
        )}
        {full ? (
          paidUser || limit >= LIMITS.premiumPhotos ? (
            <Alert variant="info" className="mb-0">
              <FormattedMessage id="profile.photo_limit_premium" values={{ limit }} />
            </Alert>
          ) : (
            <Alert variant="warning" className="mb-0">
              <FormattedMessage
                id="profile.photo_limit_reached"
                values={{
                  limit,
                  premium: LIMITS.premiumPhotos,
                  // Decision 030: no way to premium on a site that takes no purchases, the note instead.
                  link: (chunks) =>
                    purchasesAvailable ? (
                      <Link to="/premium" className="alert-link">
                        {chunks}
                      </Link>
                    ) : (
                      chunks
                    ),
                }}
              />
              {purchasesAvailable ? null : <PurchasesUnavailableNote className="mb-0 mt-1" />}
            </Alert>
          )
        ) : (
          <PhotoFileField
            id="profile-photo-upload"
            labelClassName="fw-semibold"
            hasPhotos={photos.length > 0}
            busy={busy}
            onFile={(file) => void upload(file)}
            onProblem={setError}
          />
        )}
        {busy && !confirmOpen ? (
          <p className="small mt-2 mb-0" aria-hidden="true">
            <Spinner as="span" animation="border" size="sm" className="me-2" />
            <FormattedMessage id="profile.photo_saving" />
          </p>
        ) : null}
      </div>
      <Modal
        show={confirmOpen}
        onHide={() => setConfirmOpen(false)}
        onEntered={() => cancelRef.current?.focus()}
        onExited={afterDialog}
        restoreFocus={false}
        backdrop={busy ? "static" : true}
        keyboard={!busy}
        centered
        aria-labelledby="delete-photo-title"
      >
        <Modal.Header closeButton={!busy} closeLabel={closeLabel}>
          <Modal.Title id="delete-photo-title">
            <FormattedMessage id="profile.delete_confirm_title" />
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <FormAlert>{confirmError}</FormAlert>
          <div className="d-flex gap-3 align-items-start">
            {confirming ? (
              <img src={confirming.thumb_url} alt="" width={64} height={80} className="rounded object-fit-cover flex-shrink-0" />
            ) : null}
            <p className="mb-0">
              <FormattedMessage id={confirming?.is_main ? "profile.delete_confirm_main" : "profile.delete_confirm_body"} />
            </p>
          </div>
        </Modal.Body>
        <Modal.Footer>
          <Button ref={cancelRef} variant="outline-secondary" onClick={() => setConfirmOpen(false)} disabled={busy}>
            <FormattedMessage id="settings.cancel" />
          </Button>
          <BusyButton variant="danger" onClick={() => void confirmDelete()} busy={busy}>
            <FormattedMessage id="profile.delete_confirm" />
          </BusyButton>
        </Modal.Footer>
      </Modal>
    </section>
  );
}
