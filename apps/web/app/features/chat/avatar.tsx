import type { ChatProfile } from "@app/contract";
import { PhotoPlaceholder } from "../../ui/photo-placeholder";

/**
 * A round thumbnail of the other member, or the no-photo silhouette (issue #29). Decoration: the
 * member's name is written beside it in the chat list and the chat header.
 */
export function Avatar({ profile, size = 48 }: { profile: Pick<ChatProfile, "name" | "main_image">; size?: number }) {
  if (profile.main_image) {
    return (
      <img
        src={profile.main_image.thumb_url}
        alt=""
        width={size}
        height={size}
        className="rounded-circle object-fit-cover flex-shrink-0"
        loading="lazy"
      />
    );
  }
  return <PhotoPlaceholder className="rounded-circle flex-shrink-0" style={{ width: size, height: size }} />;
}
