import { type RouterContextProvider, redirect } from "react-router";
import { servicesContext } from "../server-context";

/** For members-only page loaders: a visitor is sent to the login (spec §2 redirects). */
export async function requireMember(context: Readonly<RouterContextProvider>): Promise<void> {
  if (!(await context.get(servicesContext).currentUser())) throw redirect("/login");
}
