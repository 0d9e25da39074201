import type { ChatProfile } from "@app/contract";

/** A round thumbnail of the other member, or their initial on a tinted disc when they have no photo. */
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
  return (
    <span
      aria-hidden="true"
      className="chat-avatar-initial rounded-circle d-inline-flex align-items-center justify-content-center flex-shrink-0 fw-semibold"
      style={{ width: size, height: size }}
    >
      {profile.name.slice(0, 1).toUpperCase()}
    </span>
  );
}
