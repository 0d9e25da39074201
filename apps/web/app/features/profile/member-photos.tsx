import { type MemberPhoto, type MemberProfile, nameValues } from "@app/contract";
import { useState } from "react";
import { Carousel, Modal } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { Link } from "react-router";
import { usePurchasesAvailable } from "../../lib/purchases";
import { PhotoPlaceholder } from "../../ui/photo-placeholder";
import { PurchasesUnavailableNote } from "../../ui/purchases-unavailable";

function LockGlyph() {
  return (
    <svg viewBox="0 0 16 16" width="1.25em" height="1.25em" fill="currentColor" aria-hidden="true" focusable="false">
      <path d="M8 1a3.5 3.5 0 0 0-3.5 3.5V6H4a1.5 1.5 0 0 0-1.5 1.5v6A1.5 1.5 0 0 0 4 15h8a1.5 1.5 0 0 0 1.5-1.5v-6A1.5 1.5 0 0 0 12 6h-.5V4.5A3.5 3.5 0 0 0 8 1Zm2 5H6V4.5a2 2 0 1 1 4 0V6Z" />
    </svg>
  );
}

type PhotoProfile = Pick<MemberProfile, "name" | "gender" | "main_image" | "photos" | "locked_photos" | "photo_lock">;

/** A photo the asker may open: its full-size URL came with it. */
type OpenPhoto = MemberPhoto & { url: string };
const isOpen = (photo: MemberPhoto): photo is OpenPhoto => !photo.locked && photo.url !== null;

/**
 * Why some photos stay locked and what unlocks them (spec §6): visitors log in, free members buy
 * credits. The blurred thumbnails come from the server; the real photo never reaches this page.
 */
export function PhotoLockMessage({ profile }: { profile: PhotoProfile }) {
  const purchasesAvailable = usePurchasesAvailable();
  if (!profile.photo_lock || profile.locked_photos === 0) return null;
  return profile.photo_lock === "login" ? (
    <p className="mb-0">
      <Link to="/login" className="fw-semibold">
        <FormattedMessage id="member.lock_login" values={nameValues(profile.name)} />
      </Link>
    </p>
  ) : (
    <div className="d-flex flex-wrap align-items-center gap-2">
      <span>
        <FormattedMessage id="member.lock_premium" />
      </span>
      {/* Decision 030: no way to premium on a site that takes no purchases. */}
      {purchasesAvailable ? (
        <Link to="/premium" className="btn btn-sm btn-primary">
          <FormattedMessage id="nav.get_premium" />
        </Link>
      ) : (
        <PurchasesUnavailableNote />
      )}
    </div>
  );
}

/**
 * Spec §2 profile view: the main image large, the photo thumbnails under it. An unlocked thumbnail
 * opens the gallery of the photos the asker may see; a locked one is shown blurred under a lock and
 * leads to what unlocks it.
 */
export function MemberPhotos({ profile }: { profile: PhotoProfile }) {
  const intl = useIntl();
  const [shown, setShown] = useState<number | null>(null);
  const open = profile.photos.filter(isOpen);
  const photoAlt = (photo: MemberPhoto) =>
    intl.formatMessage({ id: "member.photo_alt" }, { ...nameValues(profile.name), number: profile.photos.indexOf(photo) + 1 });
  const lockLabel =
    profile.photo_lock === "login"
      ? intl.formatMessage({ id: "member.lock_login" }, nameValues(profile.name))
      : profile.photo_lock === "premium"
        ? intl.formatMessage({ id: "member.lock_premium" })
        : intl.formatMessage({ id: "member.locked_photo" });
  const mainIndex = profile.main_image ? open.findIndex((photo) => photo.thumb_url === profile.main_image?.thumb_url) : -1;
  const mainAlt = intl.formatMessage({ id: "home.photo_alt" }, nameValues(profile.name));

  return (
    <div>
      {profile.main_image ? (
        open.length > 0 ? (
          <button
            type="button"
            className="btn p-0 border-0 d-block w-100"
            onClick={() => setShown(Math.max(0, mainIndex))}
            aria-label={intl.formatMessage(
              { id: "member.open_gallery" },
              { ...nameValues(profile.name), gender: profile.gender },
            )}
          >
            <img src={profile.main_image.url} alt={mainAlt} className="member-main-image rounded-3 shadow-sm" />
          </button>
        ) : (
          <img src={profile.main_image.url} alt={mainAlt} className="member-main-image rounded-3 shadow-sm" />
        )
      ) : (
        <PhotoPlaceholder name={profile.name} className="member-main-image rounded-3" />
      )}

      {profile.photos.length > 0 ? (
        <ul className="list-unstyled d-flex flex-wrap gap-2 mt-3 mb-2" aria-label={intl.formatMessage({ id: "member.photos" })}>
          {profile.photos.map((photo) => (
            <li key={photo.id}>
              {isOpen(photo) ? (
                <button
                  type="button"
                  className="btn p-0 border-0 member-photo-thumb-button"
                  onClick={() => setShown(open.indexOf(photo))}
                >
                  <img src={photo.thumb_url} alt={photoAlt(photo)} className="member-photo-thumb rounded" loading="lazy" />
                </button>
              ) : (
                <LockedThumb photo={photo} label={lockLabel} target={lockTarget(profile.photo_lock)} />
              )}
            </li>
          ))}
        </ul>
      ) : null}
      <PhotoLockMessage profile={profile} />

      <Modal
        show={shown !== null}
        onHide={() => setShown(null)}
        size="lg"
        centered
        aria-labelledby="member-gallery-title"
        contentClassName="bg-dark text-white"
      >
        <Modal.Header closeButton closeVariant="white" closeLabel={intl.formatMessage({ id: "alerts.close" })}>
          <Modal.Title id="member-gallery-title" className="h5">
            <FormattedMessage id="member.gallery_title" values={{ ...nameValues(profile.name), gender: profile.gender }} />
          </Modal.Title>
        </Modal.Header>
        <Modal.Body className="p-0">
          {shown !== null ? (
            <Carousel
              activeIndex={shown}
              onSelect={(index) => setShown(index)}
              interval={null}
              indicators={false}
              controls={open.length > 1}
              prevLabel={intl.formatMessage({ id: "member.previous_photo" })}
              nextLabel={intl.formatMessage({ id: "member.next_photo" })}
            >
              {open.map((photo) => (
                <Carousel.Item key={photo.id}>
                  <img src={photo.url} alt={photoAlt(photo)} className="member-gallery-image d-block w-100" />
                </Carousel.Item>
              ))}
            </Carousel>
          ) : null}
        </Modal.Body>
      </Modal>
    </div>
  );
}

function lockTarget(lock: MemberProfile["photo_lock"]): string | null {
  return lock === "login" ? "/login" : lock === "premium" ? "/premium" : null;
}

/** A locked photo: the server's blurred thumbnail under a lock, a link to what unlocks it when there is one. */
function LockedThumb({ photo, label, target }: { photo: MemberPhoto; label: string; target: string | null }) {
  const content = (
    <>
      <img src={photo.thumb_url} alt="" className="member-photo-thumb rounded" loading="lazy" />
      <span className="member-photo-lock">
        <LockGlyph />
      </span>
    </>
  );
  return target ? (
    <Link to={target} className="member-photo-locked" aria-label={label} title={label}>
      {content}
    </Link>
  ) : (
    <span className="member-photo-locked" role="img" aria-label={label} title={label}>
      {content}
    </span>
  );
}
