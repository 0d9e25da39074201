import { nameValues } from "@app/contract";
import { useId, useState } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { Link, useNavigate } from "react-router";
import { FictionalIcon } from "../../ui/fictional-icon";
import type { LandingDesign, LandingVariant } from "./variants";

/** What a landing shows of its member: only what a visitor may see of the profile. */
export interface LandingMember {
  id: number;
  name: string;
  age: number;
  /** The city, unless the site hides it. */
  city: string | null;
  fictional: boolean;
  /** The main photo once approved; pending or rejected photos are never shown to visitors. */
  photo: string | null;
  /** Further photos a visitor may see unblurred (at most three). */
  photos: string[];
}

export interface LandingProps {
  member: LandingMember;
  design: LandingDesign;
  variant: LandingVariant;
  siteName: string;
  /** Free messages a signup via this profile brings (spec §1), 0 when none. */
  numMessages: number;
  numCredits: number;
  signupsOpen: boolean;
  fictionalIcon: string;
  fictionalWarning: string;
}

const HEADLINES: Record<LandingVariant, string> = {
  chat: "memberLanding.headline_chat",
  date: "memberLanding.headline_date",
  nearby: "memberLanding.headline_nearby",
};
const LEADS: Record<LandingVariant, string> = {
  chat: "memberLanding.lead_chat",
  date: "memberLanding.lead_date",
  nearby: "memberLanding.lead_nearby",
};

/** The member's initial on a tinted square, where there is no photo a visitor may see. */
function Portrait({ member, className }: { member: LandingMember; className: string }) {
  const intl = useIntl();
  return member.photo ? (
    <img
      className={className}
      src={member.photo}
      alt={intl.formatMessage({ id: "memberLanding.photo_alt" }, nameValues(member.name))}
    />
  ) : (
    <div className={`${className} member-landing-initial`} role="img" aria-label={member.name}>
      <span aria-hidden="true">{member.name.slice(0, 1).toUpperCase()}</span>
    </div>
  );
}

function NameLine({
  member,
  fictionalIcon,
  as: Heading = "h2",
}: {
  member: LandingMember;
  fictionalIcon: string;
  as?: "h1" | "h2";
}) {
  return (
    <Heading className="h3 mb-1">
      <FormattedMessage id="member.title" values={{ name: member.name, age: member.age }} />
      {member.fictional ? <FictionalIcon name={fictionalIcon} labelled className="ms-2 text-primary" /> : null}
    </Heading>
  );
}

function Place({ member }: { member: LandingMember }) {
  return member.city ? (
    <p className="text-body-secondary mb-0">
      <FormattedMessage id="memberLanding.lives_in" values={{ city: member.city }} />
    </p>
  ) : null;
}

/** The signup call: via this profile when signups are open, otherwise the login (spec §4). */
function SignupCall({ member, numMessages, numCredits, signupsOpen, className = "" }: LandingProps & { className?: string }) {
  return (
    <div className={className}>
      {signupsOpen ? (
        <>
          {numMessages > 0 ? (
            <p className="member-landing-free fw-semibold mb-2">
              <FormattedMessage id="signup.free_messages" values={{ numMessages, numCredits }} />
            </p>
          ) : null}
          <Link to={`/members/${member.id}/signup`} className="btn btn-primary btn-lg">
            <FormattedMessage id="signup.via_profile_title" values={{ name: member.name }} />
          </Link>
          <p className="small mt-3 mb-0">
            <FormattedMessage id="memberLanding.have_account" />{" "}
            <Link to="/login" className="text-decoration-underline">
              <FormattedMessage id="nav.login" />
            </Link>
          </p>
        </>
      ) : (
        <Link to="/login" className="btn btn-primary btn-lg">
          <FormattedMessage id="member.visitor_prompt" values={{ name: member.name }} />
        </Link>
      )}
    </div>
  );
}

function FictionalNote({ member, fictionalWarning, className = "" }: LandingProps & { className?: string }) {
  return member.fictional && fictionalWarning ? (
    <p className={`small text-body-secondary mt-3 mb-0 ${className}`}>{fictionalWarning}</p>
  ) : null;
}

/** /members/{id}/landing: the member's portrait on a card, the headline and the call. */
function PortraitLanding(props: LandingProps) {
  const { member, variant, siteName, fictionalIcon } = props;
  return (
    <div className="member-landing member-landing-portrait">
      <div className="card shadow border-0 overflow-hidden mx-auto">
        <Portrait member={member} className="member-landing-photo" />
        <div className="card-body p-4 text-center">
          <p className="text-uppercase small fw-semibold text-primary mb-2">{siteName}</p>
          <h1 className="h2 mb-3">
            <FormattedMessage id={HEADLINES[variant]} values={{ name: member.name, city: member.city ?? "" }} />
          </h1>
          <NameLine member={member} fictionalIcon={fictionalIcon} />
          <Place member={member} />
          <SignupCall {...props} className="mt-4" />
          <FictionalNote {...props} />
        </div>
      </div>
    </div>
  );
}

/** /members/{id}/landing2: photo beside the pitch and the three steps to a first message. */
function SplitLanding(props: LandingProps) {
  const { member, variant, siteName, fictionalIcon } = props;
  const steps = ["memberLanding.step_account", "memberLanding.step_profile", "memberLanding.step_message"];
  return (
    <div className="member-landing member-landing-split container">
      <div className="row g-4 align-items-center">
        <div className="col-md-6">
          <Portrait member={member} className="member-landing-photo rounded-4 shadow" />
          {member.photos.length > 0 ? (
            <ul className="member-landing-strip list-unstyled d-flex gap-2 mt-2 mb-0">
              {member.photos.map((url, index) => (
                <li key={url}>
                  <img src={url} alt={`${member.name} ${index + 2}`} loading="lazy" />
                </li>
              ))}
            </ul>
          ) : null}
        </div>
        <div className="col-md-6">
          <p className="text-uppercase small fw-semibold text-primary mb-2">{siteName}</p>
          <h1 className="display-6 fw-semibold mb-3">
            <FormattedMessage id={HEADLINES[variant]} values={{ name: member.name, city: member.city ?? "" }} />
          </h1>
          <p className="lead">
            <FormattedMessage id={LEADS[variant]} values={{ name: member.name, site: siteName }} />
          </p>
          <NameLine member={member} fictionalIcon={fictionalIcon} />
          <Place member={member} />
          <ol className="member-landing-steps my-4">
            {steps.map((id) => (
              <li key={id}>
                <FormattedMessage id={id} values={{ name: member.name }} />
              </li>
            ))}
          </ol>
          <SignupCall {...props} />
          <FictionalNote {...props} />
        </div>
      </div>
    </div>
  );
}

/**
 * /members/{id}/landing3: a chat window with the member, where the visitor writes a first message;
 * sending it leads to the signup via this profile (the message itself is not sent: there is no account).
 */
function ChatLanding(props: LandingProps) {
  const { member, variant, siteName, fictionalIcon, signupsOpen } = props;
  const intl = useIntl();
  const navigate = useNavigate();
  const field = useId();
  const [draft, setDraft] = useState("");
  return (
    <div className="member-landing member-landing-chat container">
      <p className="text-uppercase small fw-semibold text-primary text-center mb-2">{siteName}</p>
      <h1 className="h2 text-center mb-4">
        <FormattedMessage id={HEADLINES[variant]} values={{ name: member.name, city: member.city ?? "" }} />
      </h1>
      <div className="card shadow-sm mx-auto member-landing-window">
        <div className="card-header d-flex align-items-center gap-3 bg-body">
          <Portrait member={member} className="member-landing-avatar" />
          <div>
            <NameLine member={member} fictionalIcon={fictionalIcon} />
            <Place member={member} />
          </div>
        </div>
        <div className="card-body">
          <p className="member-landing-hint text-body-secondary text-center small">
            <FormattedMessage id={LEADS[variant]} values={{ name: member.name, site: siteName }} />
          </p>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              void navigate(signupsOpen ? `/members/${member.id}/signup` : "/login");
            }}
          >
            <label htmlFor={field} className="form-label">
              <FormattedMessage id="memberLanding.first_message" values={{ name: member.name }} />
            </label>
            <textarea
              id={field}
              className="form-control mb-3"
              rows={3}
              maxLength={500}
              value={draft}
              placeholder={intl.formatMessage({ id: "memberLanding.first_message_placeholder" }, { name: member.name })}
              onChange={(event) => setDraft(event.target.value)}
            />
            <button type="submit" className="btn btn-primary w-100">
              <FormattedMessage id="memberLanding.send" />
            </button>
            <p className="small text-body-secondary mt-2 mb-0">
              <FormattedMessage id="memberLanding.send_note" />
            </p>
          </form>
        </div>
      </div>
      <SignupCall {...props} className="text-center mt-4" />
      <FictionalNote {...props} className="text-center mx-auto member-landing-window" />
    </div>
  );
}

export function MemberLanding(props: LandingProps) {
  if (props.design === "landing2") return <SplitLanding {...props} />;
  if (props.design === "landing3") return <ChatLanding {...props} />;
  return <PortraitLanding {...props} />;
}
