import type { LocaleCode, User } from "@app/contract";
import { createContext, useContext } from "react";

/**
 * The logged-in member as the whole page sees it. The account feature provides it (seeded from the
 * root loader, kept fresh by polling); layouts, shared UI and other features only read it here, so
 * they need not import the account feature.
 */
export interface MemberState {
  user: User | null;
  /** Replace the member after a call that answered `{ user }` (login, signup, invisible, …). */
  setUser(user: User | null): void;
  /** Ask the server again (GET /api/user.php); a `null` answer logs out. */
  refresh(): Promise<void>;
  /** End the session and go to / with a full navigation. */
  logout(): Promise<void>;
  /** Save the interface language to the account (spec §4); failures are ignored. */
  saveLanguage(language: LocaleCode): Promise<void>;
}

const loggedOut: MemberState = {
  user: null,
  setUser: () => {},
  refresh: async () => {},
  logout: async () => {},
  saveLanguage: async () => {},
};

export const MemberContext = createContext<MemberState>(loggedOut);

export function useMember(): MemberState {
  return useContext(MemberContext);
}
