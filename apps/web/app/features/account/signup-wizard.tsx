import { type ReactNode, useEffect, useRef, useState } from "react";
import { ProgressBar } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { useHydrated } from "../../lib/display-mode";
import { useMember } from "../../lib/member";
import { pushCapable } from "./push";
import { SignupForm, type SignupFormProps } from "./signup-form";
import { ConfirmEmailStep, PushStep } from "./signup-steps";

/** A step that edits the new member's profile (photo, about me, personal info), given by the caller. */
export interface ProfileStep {
  id: string;
  /** Message id of the step's heading. */
  titleId: string;
  render: (done: () => void) => ReactNode;
}

interface Step {
  id: string;
  titleId: string;
  render: (done: () => void) => ReactNode;
}

export interface SignupWizardProps {
  profileSteps: ProfileStep[];
  /** "account" starts with the signup form; "profile" continues after it (complete-signup). */
  startAt?: "account" | "profile";
  viaProfile?: SignupFormProps["viaProfile"];
  /** The site's push key (settings.push_public_key): the push opt-in step appears only with one. */
  pushPublicKey: string | null;
  /** True while a request runs or once the account exists: the signup modal must stay open. */
  onLockChange?: (locked: boolean) => void;
  /** The member pressed the last step's button. */
  onFinish: () => void;
  /** Heading level of the step headings (2 on a page under its h1; the modal has its own title). */
  headingLevel?: 2 | 3;
  /** Text above the form of step 0 (the wording of a signup via a profile). */
  intro?: ReactNode;
}

/**
 * The signup flow of spec §4: step 0 (e-mail and data), the profile steps, the push opt-in when
 * available, and the confirm-e-mail step, with a progress indicator. Focus moves to the step heading
 * whenever the step changes.
 */
export function SignupWizard({
  profileSteps,
  startAt = "account",
  viaProfile,
  pushPublicKey,
  onLockChange,
  onFinish,
  headingLevel = 2,
  intro,
}: SignupWizardProps) {
  const intl = useIntl();
  const member = useMember();
  const hydrated = useHydrated();
  const [index, setIndex] = useState(0);
  const [busy, setBusy] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const focusedStep = useRef(0);

  const steps: Step[] = [
    ...(startAt === "account"
      ? [
          {
            id: "account",
            titleId: "signup.step_account",
            render: (done: () => void) => (
              <>
                {intro}
                <SignupForm viaProfile={viaProfile} onBusyChange={setBusy} onCreated={done} />
              </>
            ),
          },
        ]
      : []),
    ...profileSteps,
    ...(pushPublicKey && hydrated && pushCapable()
      ? [
          {
            id: "push",
            titleId: "signup.step_push",
            render: (done: () => void) => <PushStep publicKey={pushPublicKey} onDone={done} />,
          },
        ]
      : []),
    {
      id: "confirm",
      titleId: "signup.step_confirm",
      render: () => <ConfirmEmailStep user={member.user} onFinish={onFinish} />,
    },
  ];
  const current = Math.min(index, steps.length - 1);
  const step = steps[current] as Step;
  const locked = busy || (startAt === "account" && current > 0);

  useEffect(() => {
    onLockChange?.(locked);
  }, [locked, onLockChange]);

  // Focus follows the step: after each step change, to the new step's heading.
  useEffect(() => {
    if (focusedStep.current === current) return;
    focusedStep.current = current;
    headingRef.current?.focus();
  }, [current]);

  const next = () => {
    setIndex((i) => Math.min(i + 1, steps.length - 1));
  };
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const title = intl.formatMessage({ id: step.titleId });
  return (
    <div className="signup-wizard">
      <div className="mb-3">
        <p className="small text-body-secondary mb-1">
          <FormattedMessage id="signup.progress" values={{ current: current + 1, total: steps.length }} />
        </p>
        <ProgressBar now={((current + 1) / steps.length) * 100} style={{ height: 6 }} aria-hidden="true" />
        <ol className="visually-hidden">
          {steps.map((s, i) => (
            <li key={s.id} aria-current={i === current ? "step" : undefined}>
              <FormattedMessage id={s.titleId} />
            </li>
          ))}
        </ol>
      </div>
      <Heading ref={headingRef} tabIndex={-1} className="h4 mb-3">
        {title}
      </Heading>
      {step.render(next)}
    </div>
  );
}
