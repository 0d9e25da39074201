import { type LikePopupProfile, nameValues } from "@app/contract";
import { Button, Modal } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { useRootData } from "../../lib/root-data";
import { FictionalIcon } from "../../ui/fictional-icon";
import { PhotoPlaceholder } from "../../ui/photo-placeholder";

/** What the "New like" pop-up announces: a match the member completed, or a like they received (auto-like). */
export interface LikePopup {
  profile: LikePopupProfile;
  kind: "match" | "like";
}

/**
 * The match modal, "New like" (spec §2, §4): the liked profile's image (the main image's match path),
 * its name with the fictional mark, and one button that closes it. react-bootstrap's Modal moves focus
 * into the dialog, keeps it there and gives it back; Escape closes it too.
 */
export function LikePopupModal({
  popup,
  show,
  onHide,
  onExited,
}: {
  popup: LikePopup | undefined;
  show: boolean;
  onHide: () => void;
  onExited?: () => void;
}) {
  const intl = useIntl();
  const root = useRootData();
  const profile = popup?.profile;
  return (
    <Modal show={show && popup !== undefined} onHide={onHide} onExited={onExited} centered aria-labelledby="like-popup-title">
      {profile ? (
        <Modal.Body className="text-center p-4">
          <h2 id="like-popup-title" className="h4 mb-3">
            <span aria-hidden="true" className="text-primary">
              ♥{" "}
            </span>
            <FormattedMessage id="likes.popup_title" />
          </h2>
          {profile.main_image ? (
            <img
              src={profile.main_image.match_url}
              alt={intl.formatMessage({ id: "home.photo_alt" }, nameValues(profile.name))}
              width={200}
              height={200}
              className="like-popup-image rounded-circle object-fit-cover shadow mb-3"
            />
          ) : (
            <PhotoPlaceholder name={profile.name} className="like-popup-image rounded-circle mx-auto mb-3 shadow" />
          )}
          <p className="h5 mb-1">
            {profile.name}
            {profile.fictional ? (
              <FictionalIcon name={root?.settings.fictional_icon ?? "masks"} labelled className="ms-2 text-primary" />
            ) : null}
          </p>
          <p className="mb-4">
            <FormattedMessage
              id={popup?.kind === "match" ? "likes.popup_match" : "likes.popup_like"}
              values={{ name: profile.name }}
            />
          </p>
          <Button variant="primary" size="lg" onClick={onHide} autoFocus>
            <FormattedMessage id="likes.popup_button" />
          </Button>
        </Modal.Body>
      ) : null}
    </Modal>
  );
}
