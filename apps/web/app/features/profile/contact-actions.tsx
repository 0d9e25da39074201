import { LIMITS } from "@app/contract";
import { FormattedMessage } from "react-intl";
import { Link } from "react-router";
import { GiftGlyph } from "../../ui/gift-glyph";
import { GetPremiumAction } from "../../ui/purchases-unavailable";

interface Props {
  profile: { id: number; name: string };
}

/**
 * A profile's contact actions (spec §3: message, gift): both lead to the conversation with the profile;
 * the gift opens its picker there (`?gift=1`), where the costs and the balance are shown.
 * `limitReached`: a free member has written in their LIMITS.freeConversations conversations and this
 * is not one of them (spec §6): the page says so before anything is typed (issue #29), with the way
 * to Premium (or, where nothing can be bought, the note: decision 030).
 */
export function ContactActions({ profile, limitReached = false }: Props & { limitReached?: boolean }) {
  if (limitReached) {
    return (
      <div className="alert alert-info mb-3" role="note">
        <p className="mb-2">
          <FormattedMessage id="chat.limit_before" values={{ max: LIMITS.freeConversations, name: profile.name }} />
        </p>
        <GetPremiumAction />
      </div>
    );
  }
  return (
    <div className="d-flex flex-wrap gap-2 mb-3">
      <Link to={`/members/${profile.id}/chat`} className="btn btn-primary">
        <span aria-hidden="true">✉ </span>
        <FormattedMessage id="member.action_message" values={{ name: profile.name }} />
      </Link>
      <Link to={`/members/${profile.id}/chat?gift=1`} className="btn btn-outline-primary">
        <span className="me-1">
          <GiftGlyph />
        </span>
        <FormattedMessage id="member.action_gift" values={{ name: profile.name }} />
      </Link>
    </div>
  );
}
