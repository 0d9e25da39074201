/**
 * Not a route: the signup flow as the signup routes and the home page's modal share it. It composes
 * the account feature (step 0, confirm e-mail) with the profile feature (photo, about me, personal
 * info), which do not know each other.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Modal } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { useLocation } from "react-router";
import { type ProfileStep, SignupWizard, type SignupWizardProps } from "../features/account/signup-wizard";
import { AboutStep, InterestsStep, LocationStep, PersonalInfoStep, PhotoStep } from "../features/profile/signup-steps";
import { getInterests, getRegions } from "../features/site/api";
import { useRootData } from "../lib/root-data";

const loadRegions = () => getRegions("all");

/**
 * The profile steps in the order of spec §4 (photo, about me, personal info) with the interests after
 * the about text (issue #29) and the location as its own step with its continue-without (spec §4).
 */
function useProfileSteps(): ProfileStep[] {
  const root = useRootData();
  const countries = root?.settings.countries;
  const locale = root?.locale ?? "en";
  return useMemo(() => {
    const loadInterests = () => getInterests(locale);
    return [
      { id: "photo", titleId: "signup.step_photo", render: (done) => <PhotoStep onDone={done} /> },
      { id: "about", titleId: "signup.step_about", render: (done) => <AboutStep onDone={done} /> },
      {
        id: "interests",
        titleId: "signup.step_interests",
        render: (done) => <InterestsStep onDone={done} loadInterests={loadInterests} />,
      },
      { id: "personal", titleId: "signup.step_personal", render: (done) => <PersonalInfoStep onDone={done} /> },
      {
        id: "location",
        titleId: "signup.step_location",
        render: (done) => <LocationStep onDone={done} countries={countries ?? []} loadRegions={loadRegions} />,
      },
    ];
  }, [countries, locale]);
}

export type SignupFlowProps = Omit<SignupWizardProps, "profileSteps" | "pushPublicKey">;

export function SignupFlow(props: SignupFlowProps) {
  const root = useRootData();
  const profileSteps = useProfileSteps();
  return <SignupWizard {...props} profileSteps={profileSteps} pushPublicKey={root?.settings.push_public_key ?? null} />;
}

/**
 * Spec §2/§4: the signup modal on desktop. It cannot be closed by the backdrop or Escape while a
 * request runs or once the account exists (the member then finishes the steps).
 */
export function SignupModal({ show, onHide, onFinish }: { show: boolean; onHide: () => void; onFinish: () => void }) {
  const intl = useIntl();
  const [locked, setLocked] = useState(false);
  const location = useLocation();
  const opened = useRef(location.key);
  // A link inside the form (log in, terms) navigates away: the modal goes with it.
  useEffect(() => {
    if (!show) {
      opened.current = location.key;
      return;
    }
    if (location.key !== opened.current) onHide();
  }, [location.key, show, onHide]);
  const finish = useCallback(() => {
    setLocked(false);
    onFinish();
  }, [onFinish]);
  return (
    <Modal
      show={show}
      onHide={locked ? () => {} : onHide}
      backdrop={locked ? "static" : true}
      keyboard={!locked}
      aria-labelledby="signup-modal-title"
      size="lg"
    >
      <Modal.Header closeButton={!locked} closeLabel={intl.formatMessage({ id: "alerts.close" })}>
        <Modal.Title id="signup-modal-title">
          <FormattedMessage id="signup.title" />
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>{show ? <SignupFlow onLockChange={setLocked} onFinish={finish} headingLevel={2} /> : null}</Modal.Body>
    </Modal>
  );
}

/** Spec §4: signups by invitation only. */
export function InviteOnly() {
  return (
    <div className="alert alert-info" role="status">
      <FormattedMessage id="signup.invite_only" />
    </div>
  );
}
