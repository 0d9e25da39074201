import type { MemberProfile, MemberResponse, OwnProfile } from "@app/contract";

/** A member's profile as GET /api/member.php answers it to a visitor, for tests: Anna, 34, of Haarlem. */
export function testMemberProfile(overrides: Partial<MemberProfile> = {}): MemberProfile {
  return {
    id: 42,
    name: "Anna",
    age: 34,
    gender: "female",
    sexuality: "hetero",
    country: "NL",
    region: "NH",
    city: "Haarlem",
    hair_color: "dark_blond",
    eye_color: null,
    body_type: "slim",
    relationship_status: "single",
    tattoos: false,
    interests: ["music", "travelling"],
    about: "Walks on the beach.\nGood coffee.",
    fictional: false,
    distance: null,
    main_image: { thumb_url: "/cdn/1-thumb.jpg", url: "/cdn/1.jpg", status: "active" },
    photos: [
      { id: 1, thumb_url: "/cdn/1-thumb.jpg", url: "/cdn/1.jpg", locked: false, private: false },
      { id: 2, thumb_url: "/cdn/2-thumb.jpg", url: "/cdn/2.jpg", locked: false, private: false },
      { id: 3, thumb_url: "/cdn/3-blur.jpg", url: null, locked: true, private: true },
    ],
    locked_photos: 1,
    photo_lock: "login",
    ...overrides,
  };
}

/** GET /api/member.php's whole answer for `profile` (no related members, no block, no like), for tests. */
export function testMemberResponse(profile: Partial<MemberProfile> = {}): MemberResponse {
  return { profile: testMemberProfile(profile), related: [], blocked: false, like: "none" };
}

/** A member's own profile (GET /api/profile.php) for tests. */
export function testOwnProfile(overrides: Partial<OwnProfile> = {}): OwnProfile {
  return {
    id: 7,
    name: "Sam",
    status: "active",
    gender: "male",
    seeking: "female",
    sexuality: "hetero",
    date_of_birth: "1990-04-12",
    age: 36,
    country: "NL",
    region: "NH",
    city: "Haarlem",
    hair_color: "brown",
    eye_color: null,
    body_type: null,
    relationship_status: "single",
    tattoos: false,
    interests: ["music"],
    about: "Hi there",
    about_in_review: false,
    about_rejection: null,
    main_image: null,
    photos: [],
    photo_limit: 3,
    located: true,
    ...overrides,
  };
}
