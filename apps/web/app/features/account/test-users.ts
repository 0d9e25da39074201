import type { User } from "@app/contract";

/** A member as GET /api/user.php answers it, for tests. */
export function testUser(overrides: Partial<User> = {}): User {
  return {
    id: 7,
    email: "sam@example.com",
    status: "active",
    profile: { id: 7, name: "Sam", status: "active", gender: "male", seeking: "female", main_image: null },
    paid_user: false,
    credits: 20,
    fictional_icon: "masks",
    language: "en",
    notifications_disabled: [],
    push_subscription: false,
    signup_date: "2026-01-01T00:00:00.000Z",
    invisible: false,
    hide_presence: false,
    ...overrides,
  };
}

export function unconfirmedUser(overrides: Partial<User> = {}): User {
  const base = testUser();
  return testUser({ status: "not_confirmed", profile: { ...base.profile, status: "disabled" }, ...overrides });
}
